################################################################################
# Rendered cloud-init, decoded
################################################################################

output "cloud_init" {
  description = "Each kind's cloud-init document, decoded (cassandra_seed: node 1 of the role-creating region)."
  value = {
    cassandra      = yamldecode(local.cassandra)
    cassandra_seed = yamldecode(local.cassandra_seed)
    kafka          = yamldecode(local.kafka)
    elasticsearch  = yamldecode(local.elasticsearch)
  }
}

output "files" {
  description = "Each kind's written files, path -> content."
  value       = local.files
}

output "cassandra_yaml" {
  description = "The cassandra.yaml the node gets, decoded."
  value       = yamldecode(local.files.cassandra["/root/cassandra.yaml"])
}
