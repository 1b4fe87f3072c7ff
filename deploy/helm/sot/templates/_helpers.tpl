{{/*
The two services this chart deploys. Every per-service template ranges over this map so both
services get the same shape; what differs between them is data here or in values.yaml.
  valuesKey: where the service's settings live in .Values
  secretEnv: the variables it reads from the Secret, each with the key of .Values.secret.keys that
             names its key there and whether a Secret without that key is acceptable (no
             superuser bootstrap is a valid choice, no DB password is not)
  env:       variables of its own on top of the shared ConfigMap (they win over it)
webhook-dispatcher reads no table of records-api's: with webhookDispatcher.database.user set it
connects as that role (password under secret.keys.dispatcherDbPassword), with .name to that
database. It calls records-api with the API token under secret.keys.dispatcherApiToken.
*/}}
{{- define "sot.components" -}}
{{- $dispatcherDb := .Values.webhookDispatcher.database }}
records-api:
  valuesKey: recordsApi
  secretEnv:
    DB_PASSWORD: {keyOf: dbPassword, optional: false}
    SUPERUSER_PASSWORD: {keyOf: superuserPassword, optional: true}
    SUPERUSER_API_TOKEN: {keyOf: superuserApiToken, optional: true}
    {{- include "sot.kafkaSecretEnv" . | nindent 4 }}
  env: {}
webhook-dispatcher:
  valuesKey: webhookDispatcher
  secretEnv:
    DB_PASSWORD: {keyOf: {{ ternary "dispatcherDbPassword" "dbPassword" (not (empty $dispatcherDb.user)) }}, optional: false}
    RECORDS_API_TOKEN: {keyOf: dispatcherApiToken, optional: false}
    {{- include "sot.kafkaSecretEnv" . | nindent 4 }}
  env:
    {{- with $dispatcherDb.name }}
    DB_NAME: {{ . | quote }}
    {{- end }}
    {{- with $dispatcherDb.user }}
    DB_USER: {{ . | quote }}
    {{- end }}
{{- end }}

{{/* The SASL credentials (a JAAS line) of both services, when kafka.saslMechanism is set. */}}
{{- define "sot.kafkaSecretEnv" -}}
{{- if .Values.kafka.saslMechanism }}
KAFKA_SASL_JAAS_CONFIG: {keyOf: kafkaSaslJaasConfig, optional: false}
{{- end }}
{{- end }}

{{/* Where kafka.truststoreSecret is mounted. */}}
{{- define "sot.kafkaTruststoreDir" -}}
/etc/sot/kafka-truststore
{{- end }}

{{- define "sot.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Release-wide name; the services append their own name, so keep room for it. */}}
{{- define "sot.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 40 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 40 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 40 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{/* Name of one service's objects. Argument: dict "root" $ "component" "records-api". */}}
{{- define "sot.componentFullname" -}}
{{- printf "%s-%s" (include "sot.fullname" .root) .component }}
{{- end }}

{{- define "sot.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
app.kubernetes.io/name: {{ include "sot.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: {{ include "sot.name" . }}
{{- end }}

{{/* Selector labels of one service. Argument: dict "root" $ "component" "records-api". */}}
{{- define "sot.selectorLabels" -}}
app.kubernetes.io/name: {{ include "sot.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end }}

{{- define "sot.componentLabels" -}}
{{ include "sot.labels" .root }}
app.kubernetes.io/component: {{ .component }}
{{- end }}

{{- define "sot.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "sot.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{- define "sot.configMapName" -}}
{{- printf "%s-config" (include "sot.fullname" .) }}
{{- end }}

{{- define "sot.secretName" -}}
{{- default (include "sot.fullname" .) .Values.secret.existingSecret }}
{{- end }}

{{/* The build that runs (image.variant): jvm or native; anything else fails the render. */}}
{{- define "sot.variant" -}}
{{- $variant := .Values.image.variant | default "jvm" }}
{{- if not (has $variant (list "jvm" "native")) }}
{{- fail (printf "image.variant must be jvm or native, not %q" $variant) }}
{{- end }}
{{- $variant }}
{{- end }}

{{/* Resources of one service for the variant that runs. Argument: dict "root" $ "values" <service values>. */}}
{{- define "sot.resources" -}}
{{- if eq (include "sot.variant" .root) "native" }}
{{- .values.nativeResources | toYaml }}
{{- else }}
{{- .values.resources | toYaml }}
{{- end }}
{{- end }}

{{/* Image reference of one service. Argument: dict "root" $ "values" <service values>. */}}
{{- define "sot.image" -}}
{{- $default := .root.Chart.AppVersion }}
{{- if eq (include "sot.variant" .root) "native" }}
{{- $default = printf "%s-native" .root.Chart.AppVersion }}
{{- end }}
{{- $tag := .values.image.tag | default .root.Values.image.tag | default $default }}
{{- if .root.Values.image.registry }}
{{- printf "%s/%s:%s" (trimSuffix "/" .root.Values.image.registry) .values.image.repository $tag }}
{{- else }}
{{- printf "%s:%s" .values.image.repository $tag }}
{{- end }}
{{- end }}

{{/* Refuse settings that would deploy something broken, with a message naming the value. */}}
{{- define "sot.validate" -}}
{{- $dispatcher := .Values.webhookDispatcher }}
{{- if gt (int $dispatcher.replicaCount) (int .Values.kafka.partitions) }}
{{- fail (printf "webhookDispatcher.replicaCount (%d) exceeds kafka.partitions (%d): replicas beyond the partition count of records.object-changes would sit idle" (int $dispatcher.replicaCount) (int .Values.kafka.partitions)) }}
{{- end }}
{{- if and (not .Values.secret.existingSecret) .Values.secret.superuserApiToken }}
{{- if not (regexMatch "^[0-9a-fA-F]{40}$" .Values.secret.superuserApiToken) }}
{{- fail "secret.superuserApiToken must be 40 hexadecimal characters" }}
{{- end }}
{{- end }}
{{- if and .Values.webhookDispatcher.database.user (not .Values.secret.existingSecret) (not .Values.secret.dispatcherDbPassword) }}
{{- fail "secret.dispatcherDbPassword is required when webhookDispatcher.database.user is set (or keep it under secret.keys.dispatcherDbPassword in secret.existingSecret)" }}
{{- end }}
{{- if and .Values.kafka.saslMechanism (not .Values.secret.existingSecret) (not .Values.secret.kafkaSaslJaasConfig) }}
{{- fail "secret.kafkaSaslJaasConfig is required when kafka.saslMechanism is set (or keep it under secret.keys.kafkaSaslJaasConfig in secret.existingSecret)" }}
{{- end }}
{{- if not (has .Values.kafka.securityProtocol (list "PLAINTEXT" "SSL" "SASL_PLAINTEXT" "SASL_SSL")) }}
{{- fail "kafka.securityProtocol must be one of PLAINTEXT, SSL, SASL_PLAINTEXT, SASL_SSL" }}
{{- end }}
{{- if .Values.recordsApi.autoscaling.enabled }}
{{- if gt (int .Values.recordsApi.autoscaling.minReplicas) (int .Values.recordsApi.autoscaling.maxReplicas) }}
{{- fail "recordsApi.autoscaling.minReplicas must not exceed recordsApi.autoscaling.maxReplicas" }}
{{- end }}
{{- end }}
{{- end }}

{{/*
Where browsers reach the dispatcher's pages: webhookDispatcher.pagesUrl, else the first host of the
dispatcher's Ingress (https when the Ingress has tls), else nothing (records-api then links to
DISPATCHER_URL, the in-cluster Service).
*/}}
{{- define "sot.dispatcherPagesUrl" -}}
{{- $d := .Values.webhookDispatcher -}}
{{- if $d.pagesUrl -}}
{{- $d.pagesUrl -}}
{{- else if and $d.ingress.enabled $d.ingress.hosts -}}
{{- printf "%s://%s" (ternary "https" "http" (not (empty $d.ingress.tls))) (index $d.ingress.hosts 0).host -}}
{{- end -}}
{{- end }}
