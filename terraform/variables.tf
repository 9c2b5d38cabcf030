variable "kubeconfig_path" {
  description = "Path of the kubeconfig to deploy with."
  type        = string
  default     = "~/.kube/config"
}

variable "kubeconfig_context" {
  description = "kubeconfig context; null for the current one."
  type        = string
  default     = null
}

variable "namespace" {
  description = "Namespace of the Flink deployment (created)."
  type        = string
  default     = "tributary"
}

variable "name" {
  description = "Name of the FlinkDeployment; also the prefix of its pods and services."
  type        = string
  default     = "tributary"
}

variable "install_operator" {
  description = "Install the Flink Kubernetes Operator with Helm (false when the cluster already runs one that watches var.namespace)."
  type        = bool
  default     = true
}

variable "operator_version" {
  description = "Flink Kubernetes Operator Helm chart version; one that supports var.flink_version."
  type        = string
  default     = "1.13.0"
}

variable "flink_version" {
  description = "FlinkDeployment flinkVersion of the image (Flink 2.2.1): the operator release must know it (its FlinkVersion enum gains a value per Flink minor; check the operator's compatibility matrix)."
  type        = string
  default     = "v2_2"
}

variable "image" {
  description = "Job image built from docker/Dockerfile (Flink 2.2.1, Java 17, the shaded job jar in /opt/flink/usrlib)."
  type        = string
}

variable "parallelism" {
  description = "Job parallelism: source, decode and sink subtasks. Keep it at most the partition count of the topics."
  type        = number
  default     = 2
}

variable "decode_parallelism" {
  description = "Parallelism of decode and sink; null for the job parallelism."
  type        = number
  default     = null
}

variable "task_slots" {
  description = "Slots per TaskManager (one per CPU core of its pod)."
  type        = number
  default     = 2
}

variable "taskmanager_memory" {
  description = "Process memory of each TaskManager pod (see docs/configuration.md, Memory: the bound of the sink)."
  type        = string
  default     = "3072m"
}

variable "kafka_bootstrap_servers" {
  description = "Kafka brokers, host:port[,host:port]."
  type        = string
}

variable "kafka_topics" {
  description = "Topic per signal; an empty string turns the signal off."
  type        = object({ traces = string, logs = string, metrics = string })
  default     = { traces = "otlp_spans", logs = "otlp_logs", metrics = "otlp_metrics" }
}

variable "kafka_group_id" {
  description = "Consumer group the job commits its offsets to (for lag monitoring)."
  type        = string
  default     = "tributary"
}

variable "kafka_config_secret" {
  description = "Name of a Kubernetes Secret in var.namespace with a key 'kafka.yaml' holding kafka.properties.* settings (SASL/SSL; secrets never go in arguments); empty for none."
  type        = string
  default     = ""
}

variable "clickhouse_url" {
  description = "ClickHouse HTTP interface, e.g. https://clickhouse.example:8443."
  type        = string
}

variable "clickhouse_database" {
  description = "Database of the tables."
  type        = string
  default     = "otel"
}

variable "clickhouse_user" {
  description = "ClickHouse user."
  type        = string
  default     = "default"
}

variable "clickhouse_password_secret" {
  description = "Name of the Kubernetes Secret in var.namespace holding the ClickHouse password."
  type        = string
}

variable "clickhouse_password_key" {
  description = "Key of the password in that Secret."
  type        = string
  default     = "password"
}

variable "checkpoint_storage" {
  description = "Durable storage for checkpoints, savepoints and HA metadata, e.g. s3://bucket/tributary (the pods need access: IRSA, workload identity)."
  type        = string
}

variable "sink_delivery" {
  description = "at-least-once or exactly-once (tables need a deduplication window)."
  type        = string
  default     = "at-least-once"
  validation {
    condition     = contains(["at-least-once", "exactly-once"], var.sink_delivery)
    error_message = "sink_delivery must be at-least-once or exactly-once."
  }
}

variable "extra_args" {
  description = "Further job settings as --key value pairs (see docs/configuration.md), e.g. [\"--sink.batch.max-rows\", \"200000\"]."
  type        = list(string)
  default     = []
}
