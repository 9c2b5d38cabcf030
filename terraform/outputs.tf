output "namespace" {
  description = "Namespace of the deployment."
  value       = kubernetes_namespace.tributary.metadata[0].name
}

output "flink_deployment" {
  description = "Name of the FlinkDeployment (kubectl -n <namespace> get flinkdeployment <name>)."
  value       = kubernetes_manifest.tributary.manifest.metadata.name
}

output "rest_service" {
  description = "Service of the Flink dashboard and REST API (kubectl port-forward svc/<name> 8081)."
  value       = "${kubernetes_manifest.tributary.manifest.metadata.name}-rest"
}

output "job_args" {
  description = "The job's arguments (no secret among them)."
  value       = local.job_args
}
