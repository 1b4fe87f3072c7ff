package org.sourceoftruth.records.api.openapi;

import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Kind;
import org.sourceoftruth.records.model.Model;

/**
 * Names as NetBox's drf-spectacular document gives them, so that clients generated from either
 * document have the same types and methods: components {@code Site}, {@code BriefSite},
 * {@code BriefSiteRequest}, {@code WritableSiteRequest}, {@code PatchedWritableSiteRequest},
 * {@code PaginatedSiteList}; operation ids {@code dcim_sites_list}, {@code dcim_sites_bulk_update}.
 */
public final class OpenApiNames {
    /** How tags are rendered on every tagged object. */
    public static final String NESTED_TAG = "NestedTag";
    /** How tags are written: attributes of an existing tag. */
    public static final String NESTED_TAG_REQUEST = "NestedTagRequest";

    private OpenApiNames() {}

    /** The full representation; NetBox's devices and VMs are {@code DeviceWithConfigContext}. */
    public static String full(Model m) {
        return m.apiName() + (m.field("config_context") != null ? "WithConfigContext" : "");
    }

    public static String brief(String apiName) {
        return "Brief" + apiName;
    }

    public static String briefRequest(String apiName) {
        return "Brief" + apiName + "Request";
    }

    /**
     * The create/update body: {@code Writable<X>Request} where reading and writing differ in
     * shape (NetBox: a {@code {value,label}} choice, read-only ones included, or a tree's nested
     * parent), else
     * {@code <X>Request}.
     */
    public static String request(Model m) {
        return (asymmetric(m) ? "Writable" : "") + full(m) + "Request";
    }

    public static String patchedRequest(Model m) {
        return "Patched" + request(m);
    }

    public static String paginated(Model m) {
        return "Paginated" + full(m) + "List";
    }

    /** {@code dcim_sites}, {@code ipam_ip_addresses}: the operation ids' stem for a list path. */
    public static String operationStem(String app, String path) {
        return (app + "_" + path).replace('-', '_');
    }

    private static boolean asymmetric(Model m) {
        if (m.treeParent() != null || m.hasWritableRequest()) {
            return true;
        }
        for (Field f : m.fields()) {
            if ((f.kind == Kind.CHOICE && !f.choices().isPlain()) || f.renders() == Kind.CHOICE) {
                return true;
            }
        }
        return false;
    }
}
