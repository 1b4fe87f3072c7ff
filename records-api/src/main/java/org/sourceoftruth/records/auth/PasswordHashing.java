package org.sourceoftruth.records.auth;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.sourceoftruth.records.web.ApiException;

/**
 * Password hashing (PBKDF2 at 600,000 iterations: a few hundred milliseconds of one core) on a
 * pool of its own: {@code sot.sign-in.hash-threads} threads and at most
 * {@code sot.sign-in.hash-queue} checks waiting; a check beyond that is refused at once with
 * 429 rather than queued. Run on the request threads, 16 parallel sign-ins had every worker
 * thread and both cores hashing and an unrelated read waited seconds; now hashing takes at
 * most those threads' share of the cores, and the worker threads a burst of sign-ins can hold
 * are at most threads + queue.
 */
@ApplicationScoped
public class PasswordHashing {
    @Inject
    SignInConfig config;

    @Inject
    AuthSettings settings;

    private ThreadPoolExecutor pool;

    @PostConstruct
    void start() {
        int threads = config.hashThreads() > 0
                ? config.hashThreads()
                : Math.max(1, Runtime.getRuntime().availableProcessors() / 2);
        if (config.hashQueue() < 0) {
            throw new IllegalStateException("PASSWORD_HASH_QUEUE must not be negative");
        }
        BlockingQueue<Runnable> waiting =
                config.hashQueue() == 0 ? new SynchronousQueue<>() : new ArrayBlockingQueue<>(config.hashQueue());
        AtomicInteger count = new AtomicInteger();
        pool = new ThreadPoolExecutor(threads, threads, 0, TimeUnit.MILLISECONDS, waiting, work -> {
            Thread t = new Thread(work, "password-hash-" + count.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    @PreDestroy
    void stop() {
        pool.shutdownNow();
    }

    /** Whether {@code password} matches the stored hash {@code encoded}. */
    public boolean verify(String password, String encoded) {
        return run(() -> PasswordHasher.verify(password, encoded));
    }

    /** A new hash of {@code password} at PASSWORD_HASH_ITERATIONS. */
    public String hash(String password) {
        return run(() -> PasswordHasher.hash(password, settings.passwordHashIterations()));
    }

    private <T> T run(Callable<T> work) {
        Future<T> result;
        try {
            result = pool.submit(work);
        } catch (RejectedExecutionException e) {
            throw new Busy();
        }
        try {
            return result.get();
        } catch (InterruptedException e) {
            result.cancel(true);
            Thread.currentThread().interrupt();
            throw new Busy();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException(e.getCause());
        }
    }

    /** Every hashing thread is busy and the queue is full: 429, to be retried in a second. */
    public static final class Busy extends ApiException {
        Busy() {
            super(429, SignInThrottle.throttledBody(1));
            withHeader("Retry-After", "1");
        }
    }
}
