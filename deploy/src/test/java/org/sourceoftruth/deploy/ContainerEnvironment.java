package org.sourceoftruth.deploy;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvFromSource;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.SecretKeySelector;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The environment a container will see, resolved the way the kubelet does it: variables from the
 * referenced ConfigMaps first, then the container's own env entries (which win). Each variable
 * keeps where its value comes from, so tests can tell a literal from a Secret reference.
 */
final class ContainerEnvironment {

    /** A variable's origin: a literal (from env or a ConfigMap) or a key of a Secret. */
    record Source(String literal, SecretKeySelector secretKey) {
        boolean fromSecret() {
            return secretKey != null;
        }
    }

    private final Map<String, Source> variables = new LinkedHashMap<>();

    ContainerEnvironment(Container container, RenderedManifests manifests) {
        for (EnvFromSource from : container.getEnvFrom()) {
            if (from.getConfigMapRef() != null) {
                ConfigMap configMap = manifests.configMap(from.getConfigMapRef().getName());
                configMap.getData().forEach((name, value) -> variables.put(name, new Source(value, null)));
            }
            if (from.getSecretRef() != null) {
                throw new AssertionError("envFrom a whole Secret hides which keys a service reads; "
                        + container.getName() + " should name each secret variable");
            }
        }
        for (EnvVar variable : container.getEnv()) {
            SecretKeySelector secretKey = variable.getValueFrom() == null
                    ? null
                    : variable.getValueFrom().getSecretKeyRef();
            variables.put(variable.getName(), new Source(variable.getValue(), secretKey));
        }
    }

    Optional<Source> source(String name) {
        return Optional.ofNullable(variables.get(name));
    }

    /** The literal value of a variable that is not secret. */
    String literal(String name) {
        Source source = source(name).orElseThrow(() -> new AssertionError(name + " is not set"));
        if (source.fromSecret()) {
            throw new AssertionError(name + " comes from a Secret, not a literal");
        }
        return source.literal();
    }

    boolean has(String name) {
        return variables.containsKey(name);
    }
}
