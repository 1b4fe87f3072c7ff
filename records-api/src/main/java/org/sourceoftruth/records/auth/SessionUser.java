package org.sourceoftruth.records.auth;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.hibernate.annotations.Immutable;

/**
 * The owner of a {@link UserSession}: the few columns of {@code users_user} a session check
 * needs, read-only. Users themselves are an engine model (users.user) written through the API;
 * this mapping only lets the session lookup join its user in one query.
 */
@Entity
@Immutable
@Table(name = "users_user")
public class SessionUser extends PanacheEntityBase {
    @Id
    public Long id;

    @Column(nullable = false)
    public String username;

    @Column(name = "is_superuser", nullable = false)
    public boolean superuser;

    @Column(name = "is_active", nullable = false)
    public boolean active;
}
