package org.sourceoftruth.records.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The hashing pool runs at most its threads at once, queues at most its queue, and refuses the rest at once. */
class PasswordHashingTest {

    private static PasswordHashing pool(int threads, int queue) {
        PasswordHashing hashing = new PasswordHashing();
        hashing.config = new SignInConfig() {
            @Override
            public int maxFailuresPerUser() {
                return 5;
            }

            @Override
            public int maxFailuresPerAddress() {
                return 20;
            }

            @Override
            public Duration failureWindow() {
                return Duration.ofMinutes(15);
            }

            @Override
            public int hashThreads() {
                return threads;
            }

            @Override
            public int hashQueue() {
                return queue;
            }
        };
        hashing.start();
        return hashing;
    }

    @Test
    void aBurstBeyondThreadsAndQueueIsRefusedAtOnce() throws Exception {
        PasswordHashing hashing = pool(1, 2);
        // slow enough that the burst overlaps: ~0.1-0.3 s per check on one core
        String stored = PasswordHasher.hash("Correct-Horse-42", 200_000);
        int burst = 10;
        ExecutorService callers = Executors.newFixedThreadPool(burst);
        CountDownLatch start = new CountDownLatch(1);
        AtomicInteger refused = new AtomicInteger();
        List<Future<Long>> checks = new ArrayList<>();
        try {
            for (int i = 0; i < burst; i++) {
                checks.add(callers.submit(() -> {
                    start.await();
                    try {
                        assertTrue(!hashing.verify("Wrong-Horse-42", stored));
                    } catch (PasswordHashing.Busy busy) {
                        refused.incrementAndGet();
                        assertEquals(429, busy.status());
                        assertEquals("1", busy.headers().get("Retry-After"));
                        return 0L;
                    }
                    return 1L;
                }));
            }
            start.countDown();
            for (Future<Long> check : checks) {
                check.get(60, TimeUnit.SECONDS);
            }
            // one hashing, two waiting: at least seven of the ten are refused
            assertTrue(refused.get() >= burst - 3, "refused " + refused.get());
            // and the pool still works after the burst
            assertTrue(hashing.verify("Correct-Horse-42", stored));
        } finally {
            callers.shutdownNow();
            hashing.stop();
        }
    }
}
