################################################################################
# Rendered cloud-init, decoded
################################################################################

output "cloud_init" {
  description = "Each kind's cloud-init document, decoded."
  value = {
    cassandra     = yamldecode(local.cassandra)
    kafka         = yamldecode(local.kafka)
    elasticsearch = yamldecode(local.elasticsearch)
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
