package org.sourceoftruth.records.web;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.http.HttpClosedException;
import org.junit.jupiter.api.Test;

/** A client closing its connection mid-request is told apart from a server fault (logged at debug, not error). */
class ClientHangUpTest {
    @Test
    void aClosedConnectionAnywhereInTheCauseChainIsAHangUp() {
        assertTrue(ErrorMapper.clientHungUp(new HttpClosedException("Connection was closed")));
        assertTrue(ErrorMapper.clientHungUp(
                new IllegalStateException(new RuntimeException(new HttpClosedException("Connection was closed")))));
    }

    @Test
    void otherFailuresAreNot() {
        assertFalse(ErrorMapper.clientHungUp(new IllegalStateException("boom")));
        assertFalse(ErrorMapper.clientHungUp(new RuntimeException(new java.io.IOException("disk"))));
    }
}
