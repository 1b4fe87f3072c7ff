package org.sourceoftruth.records.extras;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sourceoftruth.records.Api.auth;

import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import jakarta.inject.Inject;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.records.Api;

/**
 * Image attachments and device-type images: multipart uploads as pynetbox and curl send them,
 * the bytes in PostgreSQL served back at /media/, filters, and the bytes going with the row.
 */
@QuarkusTest
class ImageAttachmentTest {
    @Inject
    AgroalDataSource dataSource;

    /** A PNG made by the JDK: width x height pixels. */
    static byte[] png(int width, int height) throws IOException {
        return image("png", width, height);
    }

    static byte[] image(String format, int width, int height) throws IOException {
        BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        image.setRGB(0, 0, 0xff0000);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertTrue(ImageIO.write(image, format, out), format);
        return out.toByteArray();
    }

    /** The superuser with a multipart body (no JSON content type). */
    static RequestSpecification form() {
        return given().header("Authorization", "Token " + Api.TOKEN);
    }

    private static String mediaPath(String url) {
        return URI.create(url).getPath();
    }

    @Test
    void anUploadedImageIsServedBackByteForByteFilteredAndDeletedWithItsBytes() throws Exception {
        int site = Api.site("img");
        byte[] bytes = png(3, 2);
        Response created = form().multiPart("image", "photo.png", bytes, "image/png")
                .multiPart("object_type", "dcim.site")
                .multiPart("object_id", String.valueOf(site))
                .multiPart("name", "rack-row")
                .multiPart("description", "front of row 4")
                .post("/api/extras/image-attachments/");
        created.then()
                .log()
                .ifValidationFails()
                .statusCode(201)
                .body("object_type", equalTo("dcim.site"))
                .body("object_id", equalTo(site))
                .body("parent.id", equalTo(site))
                .body("name", equalTo("rack-row"))
                .body("display", equalTo("rack-row"))
                .body("image", endsWith("/media/image-attachments/site_" + site + "_rack-row.png"))
                .body("image_width", equalTo(3))
                .body("image_height", equalTo(2))
                .body("description", equalTo("front of row 4"))
                .body("created", not(nullValue()));
        int id = created.path("id");
        String url = created.path("image");

        Response media = auth().get(mediaPath(url));
        media.then().statusCode(200).contentType("image/png").header("ETag", not(nullValue()));
        assertArrayEquals(bytes, media.asByteArray());
        auth().header("If-None-Match", media.header("ETag"))
                .get(mediaPath(url))
                .then()
                .statusCode(304);
        given().get(mediaPath(url)).then().statusCode(403);

        // brief form and filters
        auth().get("/api/extras/image-attachments/" + id + "/?brief=1")
                .then()
                .statusCode(200)
                .body("name", equalTo("rack-row"))
                .body("image", equalTo(url))
                .body("object_type", nullValue());
        String base = "/api/extras/image-attachments/?object_id=" + site + "&";
        auth().get(base + "object_type=dcim.site").then().body("results.id", contains(id));
        auth().get(base + "object_type=dcim.rack").then().body("results", empty());
        auth().get(base + "name=rack-row").then().body("results.id", contains(id));
        auth().get(base + "name__ic=ROW").then().body("results.id", contains(id));
        auth().get(base + "image_width=3&image_height__lt=3").then().body("results.id", contains(id));
        auth().get(base + "image_width__gt=3").then().body("results", empty());
        auth().get(base + "q=row 4").then().body("results.id", contains(id));
        auth().get("/api/extras/image-attachments/?object_id=" + (site + 100000))
                .then()
                .body("results", empty());

        // a second file under the same name gets a name of its own; the first stays
        Response second = form().multiPart("image", "other.png", png(1, 1), "image/png")
                .multiPart("object_type", "dcim.site")
                .multiPart("object_id", String.valueOf(site))
                .multiPart("name", "rack-row")
                .post("/api/extras/image-attachments/");
        second.then().statusCode(201).body("display", equalTo("rack-row"));
        String secondUrl = second.path("image");
        assertNotEquals(url, secondUrl);
        assertTrue(
                secondUrl.matches(".*/media/image-attachments/site_" + site + "_rack-row_[A-Za-z0-9]{7}\\.png"),
                secondUrl);

        // JSON updates of the other fields; a new image by multipart PATCH replaces the old bytes
        auth().body(Map.of("description", "moved"))
                .patch("/api/extras/image-attachments/" + id + "/")
                .then()
                .statusCode(200)
                .body("description", equalTo("moved"))
                .body("image", equalTo(url));
        byte[] wider = png(5, 1);
        Response replaced = form().multiPart("image", "new.png", wider, "image/png")
                .patch("/api/extras/image-attachments/" + id + "/");
        replaced.then().statusCode(200).body("image_width", equalTo(5)).body("image_height", equalTo(1));
        String replacedUrl = replaced.path("image");
        assertArrayEquals(wider, auth().get(mediaPath(replacedUrl)).asByteArray());
        if (!replacedUrl.equals(url)) {
            auth().get(mediaPath(url)).then().statusCode(404);
        }

        // delete: the row with its change record, and its bytes
        auth().delete("/api/extras/image-attachments/" + id + "/").then().statusCode(204);
        auth().get(mediaPath(replacedUrl)).then().statusCode(404);
        assertEquals(0, mediaRows(mediaPath(replacedUrl).substring("/media/".length())));
        auth().get("/api/core/object-changes/?changed_object_id=" + id)
                .then()
                .statusCode(200)
                .body(
                        "results.findAll { it.changed_object_type == 'extras.imageattachment' }.action.value",
                        hasItem("delete"));

        // the parent's delete takes its attachments along (NetBox's GenericRelation), bytes too
        int secondId = second.path("id");
        auth().delete("/api/dcim/sites/" + site + "/").then().statusCode(204);
        auth().get("/api/extras/image-attachments/" + secondId + "/").then().statusCode(404);
        auth().get(mediaPath(secondUrl)).then().statusCode(404);
        auth().get("/api/core/object-changes/?changed_object_id=" + secondId)
                .then()
                .statusCode(200)
                .body(
                        "results.findAll { it.changed_object_type == 'extras.imageattachment' }.action.value",
                        hasItem("delete"));
    }

    @Test
    void badUploadsAreRefusedNamingTheFieldAndChangeNothing() throws Exception {
        int site = Api.site("imgbad");
        String list = "/api/extras/image-attachments/";
        long before = auth().get(list + "?limit=1").then().extract().jsonPath().getLong("count");
        // JSON cannot carry a file, as in NetBox
        Api.post(list, Map.of("object_type", "dcim.site", "object_id", site, "image", "x.png"))
                .statusCode(400)
                .body("image", hasItem("The submitted data was not a file. Check the encoding type on the form."));
        // not an image, though named like one
        form().multiPart("image", "x.png", "hello, not a picture".getBytes(), "image/png")
                .multiPart("object_type", "dcim.site")
                .multiPart("object_id", String.valueOf(site))
                .post(list)
                .then()
                .statusCode(400)
                .body("image", hasItem(startsWith("Upload a valid image.")));
        // an image with an extension no image has
        form().multiPart("image", "x.txt", png(1, 1), "text/plain")
                .multiPart("object_type", "dcim.site")
                .multiPart("object_id", String.valueOf(site))
                .post(list)
                .then()
                .statusCode(400)
                .body("image", hasItem(startsWith("File extension \u201ctxt\u201d is not allowed.")));
        form().multiPart("image", "x.png", new byte[0], "image/png")
                .multiPart("object_type", "dcim.site")
                .multiPart("object_id", String.valueOf(site))
                .post(list)
                .then()
                .statusCode(400)
                .body("image", not(empty()));
        // missing parts
        form().multiPart("object_type", "dcim.site")
                .multiPart("object_id", String.valueOf(site))
                .post(list)
                .then()
                .statusCode(400)
                .body("image", hasItem("This field is required."));
        form().multiPart("image", "x.png", png(1, 1), "image/png")
                .post(list)
                .then()
                .statusCode(400)
                .body("object_type", not(empty()));
        // an object type that takes no images, an object that does not exist, a bad id
        int tag = Api.create("/api/extras/tags/", Map.of("name", "t-" + Api.uniq(), "slug", "t-" + Api.uniq()));
        form().multiPart("image", "x.png", png(1, 1), "image/png")
                .multiPart("object_type", "extras.tag")
                .multiPart("object_id", String.valueOf(tag))
                .post(list)
                .then()
                .statusCode(400);
        form().multiPart("image", "x.png", png(1, 1), "image/png")
                .multiPart("object_type", "dcim.site")
                .multiPart("object_id", "999999999")
                .post(list)
                .then()
                .statusCode(400);
        form().multiPart("image", "x.png", png(1, 1), "image/png")
                .multiPart("object_type", "dcim.site")
                .multiPart("object_id", "abc")
                .post(list)
                .then()
                .statusCode(400)
                .body("object_id", not(empty()));
        // a file where text is expected
        form().multiPart("image", "x.png", png(1, 1), "image/png")
                .multiPart("name", "n.png", png(1, 1), "image/png")
                .multiPart("object_type", "dcim.site")
                .multiPart("object_id", String.valueOf(site))
                .post(list)
                .then()
                .statusCode(400)
                .body("name", not(empty()));
        // larger than the limit (sot.media.max-image-size, 8 MiB): refused naming the field
        byte[] big = new byte[8 * 1024 * 1024 + 1];
        System.arraycopy(png(1, 1), 0, big, 0, png(1, 1).length);
        form().multiPart("image", "big.png", big, "image/png")
                .multiPart("object_type", "dcim.site")
                .multiPart("object_id", String.valueOf(site))
                .post(list)
                .then()
                .statusCode(400)
                .body("image", hasItem(startsWith("The submitted file is too large")));
        // multipart where no field takes a file stays refused
        form().multiPart("name", "x").post("/api/dcim/sites/").then().statusCode(415);
        // malformed multipart bodies
        for (String type : List.of("multipart/form-data", "multipart/form-data; boundary=XyZ")) {
            Response r = form().config(io.restassured.RestAssured.config()
                            .encoderConfig(io.restassured.config.EncoderConfig.encoderConfig()
                                    .encodeContentTypeAs("multipart/form-data", io.restassured.http.ContentType.TEXT)))
                    .contentType(type)
                    .body("--XyZ\r\nContent-Disposition: form-data; name=\"image\"; "
                            + "filename=\"a.png\"\r\n\r\n\u0089PNG trunc")
                    .post(list);
            assertTrue(
                    r.statusCode() >= 400 && r.statusCode() < 500, type + " -> " + r.statusCode() + " " + r.asString());
        }
        assertEquals(
                before,
                auth().get(list + "?limit=1").then().extract().jsonPath().getLong("count"));
    }

    @Test
    void deviceTypeImagesAreUploadedServedFilteredAndCleared() throws Exception {
        int type = Api.deviceTypeAndRole()[0];
        String detail = "/api/dcim/device-types/" + type + "/";
        auth().get(detail).then().body("front_image", nullValue()).body("rear_image", nullValue());
        byte[] front = png(4, 4);
        Response r = form().multiPart("front_image", "front.png", front, "image/png")
                .multiPart("rear_image", "rear.gif", image("gif", 2, 2), "image/gif")
                .multiPart("comments", "photos")
                .patch(detail);
        r.then()
                .log()
                .ifValidationFails()
                .statusCode(200)
                .body("front_image", endsWith("/media/devicetype-images/front.png"))
                .body("rear_image", containsString("/media/devicetype-images/rear"))
                .body("comments", equalTo("photos"));
        String frontUrl = r.path("front_image");
        String rearUrl = r.path("rear_image");
        assertArrayEquals(
                front,
                auth().get(mediaPath(frontUrl))
                        .then()
                        .statusCode(200)
                        .contentType("image/png")
                        .extract()
                        .asByteArray());
        auth().get(mediaPath(rearUrl)).then().statusCode(200).contentType("image/gif");
        auth().get("/api/dcim/device-types/?has_front_image=true&id=" + type)
                .then()
                .body("results.id", contains(type));
        auth().get("/api/dcim/device-types/?has_front_image=false&id=" + type)
                .then()
                .body("results", empty());

        // cleared with null in JSON, or an empty part in multipart (NetBox's allow_null)
        auth().body("{\"front_image\": null}")
                .patch(detail)
                .then()
                .statusCode(200)
                .body("front_image", nullValue())
                .body("rear_image", equalTo(rearUrl));
        auth().get(mediaPath(frontUrl)).then().statusCode(404);
        form().multiPart("rear_image", "").patch(detail).then().statusCode(200).body("rear_image", nullValue());
        auth().get(mediaPath(rearUrl)).then().statusCode(404);
        auth().get("/api/dcim/device-types/?has_front_image=false&id=" + type)
                .then()
                .body("results.id", contains(type));
        // a change record shows the stored name, as NetBox's snapshot does
        auth().get("/api/core/object-changes/?changed_object_id=" + type)
                .then()
                .statusCode(200)
                .body(
                        "results.findAll { it.changed_object_type == 'dcim.devicetype' }.prechange_data.front_image",
                        hasItem("devicetype-images/front.png"));
    }

    /**
     * A browser session uploads only with its CSRF token (header or form field), as every unsafe
     * request it authenticates; /media/ needs the view permission on the image's model.
     */
    @Test
    void sessionUploadsNeedTheCsrfTokenAndMediaNeedsViewPermission() throws Exception {
        org.sourceoftruth.records.Accounts.Account a = org.sourceoftruth.records.Accounts.account("imgsession");
        org.sourceoftruth.records.Accounts.permission(
                List.of("extras.imageattachment"), List.of("view", "add"), null, List.of(a.id()));
        Response login = given().contentType("application/json")
                .body(Map.of("username", a.username(), "password", org.sourceoftruth.records.Accounts.PASSWORD))
                .post("/login/");
        login.then().statusCode(200);
        String session = login.getCookie("sessionid");
        String csrf = login.getCookie("csrftoken");
        int site = Api.site("imgcsrf");
        String list = "/api/extras/image-attachments/";
        given().cookie("sessionid", session)
                .cookie("csrftoken", csrf)
                .multiPart("image", "x.png", png(1, 1), "image/png")
                .multiPart("object_type", "dcim.site")
                .multiPart("object_id", String.valueOf(site))
                .post(list)
                .then()
                .statusCode(403)
                .body("detail", equalTo("CSRF Failed: CSRF token missing."));
        auth().get(list + "?object_id=" + site).then().body("results", empty());
        String url = given().cookie("sessionid", session)
                .cookie("csrftoken", csrf)
                .header("X-CSRFToken", csrf)
                .multiPart("image", "x.png", png(1, 1), "image/png")
                .multiPart("object_type", "dcim.site")
                .multiPart("object_id", String.valueOf(site))
                .post(list)
                .then()
                .statusCode(201)
                .extract()
                .path("image");
        given().cookie("sessionid", session)
                .get(mediaPath(url))
                .then()
                .statusCode(200)
                .contentType("image/png");
        // someone who may not view image attachments does not get their files
        org.sourceoftruth.records.Accounts.Account other = org.sourceoftruth.records.Accounts.account("imgnoview");
        other.api().get(mediaPath(url)).then().statusCode(403);
    }

    private long mediaRows(String name) throws SQLException {
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement("select count(*) from media_file where name = ?")) {
            ps.setString(1, name);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }
}
