package org.sourceoftruth.records.extras;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import org.jboss.logging.Logger;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * Listens on the {@code config_contexts} channel (V44's triggers notify it on commit of anything
 * that changes what a context matches) on a session of its own, outside the request pool, and
 * calls {@code onChange} for every notification. It also calls it after every (re)connection, since
 * notifications sent while it was away are lost, and reports whether it is listening right now:
 * while it is not, the cache must not trust its copy for long.
 */
final class ConfigContextListener extends Thread {
    static final String CHANNEL = "config_contexts";
    private static final Logger LOG = Logger.getLogger(ConfigContextListener.class);
    /** How long one wait for notifications lasts; a round trip after each proves the session alive. */
    private static final Duration HEARTBEAT = Duration.ofSeconds(5);

    private static final Duration RETRY = Duration.ofSeconds(2);

    private final String jdbcUrl;
    private final String user;
    private final String password;
    private final Runnable onChange;
    private volatile boolean running = true;
    private volatile boolean listening;

    ConfigContextListener(String jdbcUrl, String user, String password, Runnable onChange) {
        super("config-context-listener");
        setDaemon(true);
        this.jdbcUrl = jdbcUrl;
        this.user = user;
        this.password = password;
        this.onChange = onChange;
    }

    boolean listening() {
        return listening;
    }

    void shutdown() {
        running = false;
        interrupt();
    }

    @Override
    public void run() {
        while (running) {
            try (Connection connection = open();
                    Statement statement = connection.createStatement()) {
                statement.execute("listen " + CHANNEL);
                listening = true;
                onChange.run(); // whatever changed while no session listened
                PGConnection pg = connection.unwrap(PGConnection.class);
                while (running) {
                    PGNotification[] notifications = pg.getNotifications((int) HEARTBEAT.toMillis());
                    if (notifications != null && notifications.length > 0) {
                        onChange.run();
                    } else {
                        statement.execute("select 1");
                    }
                }
            } catch (SQLException | RuntimeException e) {
                if (running) {
                    LOG.warnf("Config context listener lost its database session, retrying: %s", e.getMessage());
                }
            } finally {
                listening = false;
                onChange.run();
            }
            pause();
        }
    }

    private Connection open() throws SQLException {
        PGSimpleDataSource source = new PGSimpleDataSource();
        source.setUrl(jdbcUrl);
        source.setUser(user);
        source.setPassword(password);
        source.setApplicationName("records-api config context listener");
        source.setTcpKeepAlive(true);
        Connection connection = source.getConnection();
        connection.setAutoCommit(true);
        return connection;
    }

    private void pause() {
        if (!running) {
            return;
        }
        try {
            Thread.sleep(RETRY.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            running = false;
        }
    }
}
