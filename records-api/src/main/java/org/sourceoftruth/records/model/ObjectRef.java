package org.sourceoftruth.records.model;

/**
 * A reference to one object in a {@link BatchLoader}'s value: the engine renders it as the
 * object's nested (brief) form, as NetBox's serializers nest related objects.
 */
public record ObjectRef(String contentType, long id) {
    /** NetBox's path-node form {@code <content type>:<id>}. */
    public String node() {
        return contentType + ":" + id;
    }

    /** Reads a node written by {@link #node()}. */
    public static ObjectRef ofNode(String node) {
        int colon = node.lastIndexOf(':');
        return new ObjectRef(node.substring(0, colon), Long.parseLong(node.substring(colon + 1)));
    }
}
