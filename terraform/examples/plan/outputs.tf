################################################################################
# The plan, for people
################################################################################

output "regions" {
  description = "Per region: VPC and subnets, Cassandra nodes and addresses, Kafka and Elasticsearch addresses."
  value       = module.plan.regions
}

output "seeds" {
  description = "Cassandra seeds (node 1 of every DC)."
  value       = module.plan.seeds
}

output "keyspace_replication" {
  description = "The broker keyspace's replication."
  value       = module.plan.keyspace_replication
}

output "peering_pairs" {
  description = "The VPC peering connections."
  value       = keys(module.plan.peering_pairs)
}

output "monthly_cost" {
  description = "Estimated USD per month per region."
  value       = module.plan.monthly_cost
}

output "monthly_cost_total" {
  description = "Estimated USD per month, all regions."
  value       = module.plan.monthly_cost_total
}

output "kubernetes" {
  description = "What the Kubernetes overlays take from Terraform, per region (k8s/bin/from-terraform reads it; the secrets come only from examples/multi-region)."
  value       = module.plan.kubernetes
}
