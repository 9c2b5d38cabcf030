# Tributary on Kubernetes with the Flink Kubernetes Operator: one FlinkDeployment in application
# mode, upgraded by savepoint (the operator takes a savepoint, stops the job and starts the new
# spec from it), JobManager HA on Kubernetes, checkpoints and savepoints in object storage.

locals {
  password_env = "CLICKHOUSE_PASSWORD"
  secrets_dir  = "/opt/tributary/secrets"
  job_args = concat(
    [
      "--kafka.bootstrap-servers", var.kafka_bootstrap_servers,
      "--kafka.group-id", var.kafka_group_id,
      "--kafka.topics.traces", var.kafka_topics.traces,
      "--kafka.topics.logs", var.kafka_topics.logs,
      "--kafka.topics.metrics", var.kafka_topics.metrics,
      "--clickhouse.url", var.clickhouse_url,
      "--clickhouse.database", var.clickhouse_database,
      "--clickhouse.user", var.clickhouse_user,
      # the name of the variable, not the password: the dashboard shows arguments to everyone
      "--clickhouse.password-env", local.password_env,
      "--sink.delivery", var.sink_delivery,
    ],
    var.decode_parallelism == null ? [] : ["--decode.parallelism", tostring(var.decode_parallelism)],
    var.kafka_config_secret == "" ? [] : ["--config", "${local.secrets_dir}/kafka.yaml"],
    var.extra_args,
  )
  kafka_volume = var.kafka_config_secret == "" ? [] : [{
    name   = "kafka-config"
    secret = { secretName = var.kafka_config_secret }
  }]
  kafka_mount = var.kafka_config_secret == "" ? [] : [{
    name      = "kafka-config"
    mountPath = local.secrets_dir
    readOnly  = true
  }]
}

resource "kubernetes_namespace" "tributary" {
  metadata {
    name = var.namespace
  }
}

resource "helm_release" "flink_operator" {
  count            = var.install_operator ? 1 : 0
  name             = "flink-kubernetes-operator"
  repository       = "https://downloads.apache.org/flink/flink-kubernetes-operator-${var.operator_version}/"
  chart            = "flink-kubernetes-operator"
  version          = var.operator_version
  namespace        = "flink-operator"
  create_namespace = true
  values = [yamlencode({
    watchNamespaces = [kubernetes_namespace.tributary.metadata[0].name]
    webhook         = { create = false }
  })]
}

# The JobManager edits ConfigMaps (leader election, HA metadata) and manages TaskManager pods.
resource "kubernetes_service_account" "flink" {
  metadata {
    name      = "${var.name}-flink"
    namespace = kubernetes_namespace.tributary.metadata[0].name
  }
}

resource "kubernetes_role" "flink" {
  metadata {
    name      = "${var.name}-flink"
    namespace = kubernetes_namespace.tributary.metadata[0].name
  }
  rule {
    api_groups = [""]
    resources  = ["pods", "configmaps", "services"]
    verbs      = ["get", "list", "watch", "create", "update", "patch", "delete"]
  }
  rule {
    api_groups = ["apps"]
    resources  = ["deployments", "deployments/finalizers"]
    verbs      = ["get", "list", "watch", "create", "update", "patch", "delete"]
  }
}

resource "kubernetes_role_binding" "flink" {
  metadata {
    name      = "${var.name}-flink"
    namespace = kubernetes_namespace.tributary.metadata[0].name
  }
  role_ref {
    api_group = "rbac.authorization.k8s.io"
    kind      = "Role"
    name      = kubernetes_role.flink.metadata[0].name
  }
  subject {
    kind      = "ServiceAccount"
    name      = kubernetes_service_account.flink.metadata[0].name
    namespace = kubernetes_namespace.tributary.metadata[0].name
  }
}

resource "kubernetes_manifest" "tributary" {
  depends_on = [helm_release.flink_operator, kubernetes_role_binding.flink]
  manifest = {
    apiVersion = "flink.apache.org/v1beta1"
    kind       = "FlinkDeployment"
    metadata = {
      name      = var.name
      namespace = kubernetes_namespace.tributary.metadata[0].name
    }
    spec = {
      image          = var.image
      flinkVersion   = var.flink_version
      serviceAccount = kubernetes_service_account.flink.metadata[0].name
      flinkConfiguration = {
        "taskmanager.numberOfTaskSlots"                             = tostring(var.task_slots)
        "state.backend.type"                                        = "hashmap"
        "execution.checkpointing.dir"                               = "${var.checkpoint_storage}/checkpoints"
        "execution.checkpointing.savepoint-dir"                     = "${var.checkpoint_storage}/savepoints"
        "execution.checkpointing.externalized-checkpoint-retention" = "RETAIN_ON_CANCELLATION"
        "execution.checkpointing.timeout"                           = "10 min"
        "execution.checkpointing.tolerable-failed-checkpoints"      = "3"
        "high-availability.type"                                    = "kubernetes"
        "high-availability.storageDir"                              = "${var.checkpoint_storage}/ha"
        "restart-strategy.type"                                     = "exponential-delay"
        "restart-strategy.exponential-delay.max-backoff"            = "1 min"
        "metrics.reporter.prom.factory.class"                       = "org.apache.flink.metrics.prometheus.PrometheusReporterFactory"
        "metrics.reporter.prom.port"                                = "9249"
        "kubernetes.operator.savepoint.history.max.count"           = "5"
      }
      podTemplate = {
        spec = {
          containers = [{
            name = "flink-main-container"
            env = [
              {
                name = local.password_env
                valueFrom = {
                  secretKeyRef = {
                    name = var.clickhouse_password_secret
                    key  = var.clickhouse_password_key
                  }
                }
              },
              # the S3 file system for checkpoint_storage, from the image's opt/
              { name = "ENABLE_BUILT_IN_PLUGINS", value = "flink-s3-fs-presto-2.2.1.jar" },
            ]
            ports        = [{ name = "metrics", containerPort = 9249 }]
            volumeMounts = local.kafka_mount
          }]
          volumes = local.kafka_volume
        }
      }
      jobManager = {
        replicas = 1
        resource = { memory = "1024m", cpu = 1 }
      }
      taskManager = {
        resource = { memory = var.taskmanager_memory, cpu = var.task_slots }
      }
      job = {
        jarURI      = "local:///opt/flink/usrlib/tributary-job.jar"
        entryClass  = "io.tributary.TributaryJob"
        args        = local.job_args
        parallelism = var.parallelism
        upgradeMode = "savepoint"
        state       = "running"
      }
    }
  }
}
