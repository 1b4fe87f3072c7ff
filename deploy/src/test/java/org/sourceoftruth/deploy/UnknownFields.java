package org.sourceoftruth.deploy;

import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.introspect.AnnotatedMember;
import com.fasterxml.jackson.databind.introspect.BeanPropertyDefinition;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Finds fields that the Kubernetes model does not know. fabric8 does not reject them while
 * deserializing: it keeps them in each object's additionalProperties, where a misspelt or
 * misplaced key (a probe's "paht", a securityContext at the wrong level) would silently vanish
 * on a real cluster. This walks the whole object graph through the same Jackson properties the
 * model serializes, and reports the path of every such field.
 */
final class UnknownFields {

    private static final String MODEL_PACKAGE = "io.fabric8.kubernetes.api.model";

    private final ObjectMapper mapper = Serialization.jsonMapper();
    private final List<String> found = new ArrayList<>();
    private final Set<Object> visited = Collections.newSetFromMap(new IdentityHashMap<>());

    private UnknownFields() {}

    /** Paths such as {@code spec.template.spec.containers[0].readinessProbe.httpGet.paht}. */
    static List<String> in(Object kubernetesObject) {
        var walker = new UnknownFields();
        walker.walk(kubernetesObject, "");
        return walker.found;
    }

    private void walk(Object node, String path) {
        if (node == null) {
            return;
        }
        if (node instanceof Map<?, ?> map) {
            map.forEach((key, value) -> walk(value, join(path, String.valueOf(key))));
            return;
        }
        if (node instanceof Collection<?> items) {
            int index = 0;
            for (Object item : items) {
                walk(item, path + "[" + index++ + "]");
            }
            return;
        }
        if (!node.getClass().getName().startsWith(MODEL_PACKAGE) || !visited.add(node)) {
            return;
        }
        BeanDescription bean = mapper.getSerializationConfig().introspect(mapper.constructType(node.getClass()));
        AnnotatedMember anyGetter = bean.findAnyGetter();
        if (anyGetter != null && anyGetter.getValue(node) instanceof Map<?, ?> unknown) {
            unknown.keySet().forEach(key -> found.add(join(path, String.valueOf(key))));
        }
        for (BeanPropertyDefinition property : bean.findProperties()) {
            AnnotatedMember accessor = property.getAccessor();
            if (accessor != null && !accessor.equals(anyGetter)) {
                walk(accessor.getValue(node), join(path, property.getName()));
            }
        }
    }

    private static String join(String path, String name) {
        return path.isEmpty() ? name : path + "." + name;
    }
}
