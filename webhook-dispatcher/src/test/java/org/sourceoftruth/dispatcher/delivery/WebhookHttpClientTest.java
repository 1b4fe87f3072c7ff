package org.sourceoftruth.dispatcher.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.dispatcher.support.Receiver;
import org.sourceoftruth.dispatcher.template.RenderedRequest;

/** The webhook HTTP client against real receivers on 127.0.0.1: what each kind of answer records. */
@QuarkusTest
@io.quarkus.test.common.WithTestResource(org.sourceoftruth.dispatcher.support.TestInfrastructure.class)
class WebhookHttpClientTest {

    private static final String BODY = "{\"event\": \"created\"}";

    @Inject
    WebhookHttpClient client;

    private AttemptOutcome send(String method, String url, List<RenderedRequest.Header> headers) throws Exception {
        return client.send(new RenderedRequest(method, URI.create(url), headers, BODY), true, null)
                .get(30, TimeUnit.SECONDS);
    }

    private AttemptOutcome post(String url) throws Exception {
        return send("POST", url, List.of(new RenderedRequest.Header("Content-Type", "application/json")));
    }

    @Test
    void aSuccessRecordsTheStatusAndOnlyTheFirstKibOfTheBody() throws Exception {
        // 1,023 ASCII bytes, then a 3-byte character across the 1 KiB boundary
        String answer = "a".repeat(1023) + "\u20ac" + "b".repeat(5000);
        try (Receiver receiver = Receiver.start().answering(201).answeringBody(answer)) {
            AttemptOutcome outcome = post(receiver.url("/hook"));
            assertEquals(201, outcome.statusCode());
            assertNull(outcome.error());
            assertTrue(outcome.succeeded());
            assertEquals("a".repeat(1023), outcome.responseExcerpt(), "cut character dropped, nothing after 1 KiB");
            Receiver.Received got = receiver.received().get(0);
            assertEquals("POST", got.method());
            assertEquals(BODY, got.bodyText());
            assertEquals("application/json", got.header("Content-Type"));
        }
    }

    @Test
    void anErrorStatusIsAFailureWithTheReceiversAnswer() throws Exception {
        try (Receiver receiver = Receiver.start().answering(503)) {
            AttemptOutcome outcome = post(receiver.url("/hook"));
            assertEquals(503, outcome.statusCode());
            assertEquals("receiver answered HTTP 503", outcome.error());
            assertEquals("answer 503", outcome.responseExcerpt());
        }
    }

    @Test
    void redirectsAreFollowedAsRequestsFollowsThem() throws Exception {
        try (Receiver target = Receiver.start();
                Receiver found = Receiver.start().redirecting(302, target.url("/after-302"));
                Receiver temporary = Receiver.start().redirecting(307, target.url("/after-307"));
                Receiver looping = Receiver.start().redirecting(308, "/again")) {
            AttemptOutcome afterFound = post(found.url("/hook"));
            AttemptOutcome afterTemporary = post(temporary.url("/hook"));
            assertEquals(200, afterFound.statusCode());
            assertEquals(200, afterTemporary.statusCode());
            List<Receiver.Received> arrived = target.received();
            assertEquals(2, arrived.size());
            // 302 turns a POST into a GET without the body; 307 repeats the POST with it
            assertEquals("GET", arrived.get(0).method());
            assertEquals("/after-302", arrived.get(0).path());
            assertEquals("", arrived.get(0).bodyText());
            assertEquals("POST", arrived.get(1).method());
            assertEquals("/after-307", arrived.get(1).path());
            assertEquals(BODY, arrived.get(1).bodyText());
            assertEquals("application/json", arrived.get(1).header("Content-Type"));

            // a relative Location is resolved; a loop ends after the limit with the last 3xx answer
            AttemptOutcome loop = post(looping.url("/hook"));
            assertEquals(308, loop.statusCode());
            assertEquals("receiver answered HTTP 308", loop.error());
            assertEquals(WebhookHttpClient.MAX_REDIRECTS + 1, looping.received().size());
            assertEquals("/again", looping.received().get(1).path());
        }
    }

    @Test
    void aReceiverThatIsNotThereIsAConnectionFailure() throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
        }
        AttemptOutcome outcome = post("http://127.0.0.1:" + port + "/hook");
        assertNull(outcome.statusCode());
        assertTrue(outcome.error().startsWith("could not connect to 127.0.0.1:" + port), outcome.error());
    }

    @Test
    void aReceiverSlowerThanTheTimeoutFailsTheAttemptAtTheTimeout() throws Exception {
        try (Receiver receiver = Receiver.start().delaying(12_000)) {
            AttemptOutcome outcome = post(receiver.url("/slow"));
            assertNull(outcome.statusCode());
            assertEquals("no complete response within 10000 ms", outcome.error());
            assertTrue(
                    outcome.durationMs() >= 10_000 && outcome.durationMs() < 11_500,
                    "took " + outcome.durationMs() + " ms");
        }
    }

    @Test
    void requestsThatCannotBeSentAreRefusedBeforeAnyConnection() throws Exception {
        try (Receiver receiver = Receiver.start()) {
            AttemptOutcome framing =
                    send("POST", receiver.url("/hook"), List.of(new RenderedRequest.Header("Content-Length", "3")));
            assertEquals("request could not be prepared: restricted header name: \"Content-Length\"", framing.error());
            AttemptOutcome injected = send(
                    "POST", receiver.url("/hook"), List.of(new RenderedRequest.Header("X-Tag", "a\r\nX-Injected: 1")));
            assertTrue(injected.error().startsWith("request could not be prepared: "), injected.error());
            AttemptOutcome scheme = send("POST", "ftp://127.0.0.1/hook", List.of());
            assertEquals("request could not be prepared: unsupported URL scheme: ftp", scheme.error());
            assertEquals(0, receiver.received().size());
        }
    }
}
