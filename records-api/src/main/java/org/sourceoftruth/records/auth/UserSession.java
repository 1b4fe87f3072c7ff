package org.sourceoftruth.records.auth;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.FetchType;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.Table;
import java.time.OffsetDateTime;

/**
 * A row of {@code users_session} (a browsable-API login): a fixed table that only the
 * {@link SessionStore} reads and writes, so a Panache entity rather than an engine model. Only
 * SHA-256 digests of the session key and of its CSRF token are stored. Flyway owns the table
 * (V40__users.sql); Hibernate validates this mapping against it at start.
 */
@Entity
@Table(name = "users_session")
public class UserSession extends PanacheEntityBase {
    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    @Column(name = "key_digest", nullable = false, unique = true)
    public byte[] keyDigest;

    @Column(name = "csrf_digest", nullable = false)
    public byte[] csrfDigest;

    @ManyToOne(fetch = FetchType.LAZY, optional = false)
    @JoinColumn(name = "user_id", nullable = false)
    public SessionUser user;

    /** Set by the database (default now()). */
    @Column(nullable = false, insertable = false, updatable = false)
    public OffsetDateTime created;

    @Column(nullable = false)
    public OffsetDateTime expires;
}
