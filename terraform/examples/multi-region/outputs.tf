################################################################################
# What the load harness reads (loadtest/bin/loadtest --target-terraform FILE)
################################################################################

output "regions" {
  description = "Per region: broker_url (the region's order API), kafka_bootstrap (SCRAM logins over TLS), kafka_ca_cert_pem (the CA its certificate chains to), cql_contact_points (host:port, TLS only), cql_ca_cert_pem (the CA of the nodes' certificates) and datacenter. `terraform output -json > outputs.json` is what loadtest --target-terraform reads; the local stack writes the same shape."
  value = { for name, r in module.region : name => {
    broker_url         = r.broker_url
    kafka_bootstrap    = r.kafka_bootstrap
    kafka_ca_cert_pem  = tls_self_signed_cert.data_ca.cert_pem
    cql_contact_points = r.cql_contact_points
    cql_ca_cert_pem    = tls_self_signed_cert.data_ca.cert_pem
    datacenter         = r.datacenter
  } }
}

output "order_api_url" {
  description = "The order API, latency-routed by Route 53 to the nearest healthy region."
  value       = "https://${var.api_name}"
}

################################################################################
# For the k8s overlays and the operators
################################################################################

output "broker_routing_urls" {
  description = "Per region, where other regions' brokers reach it (broker.routing.peers)."
  value       = { for name, r in module.region : name => r.broker_routing_url }
}

output "kubectl" {
  description = "Per region, how to deploy the brokers onto its EKS cluster."
  value = { for name, r in module.region : name =>
  "aws eks update-kubeconfig --region ${name} --name ${r.eks_cluster_name} && kubectl apply -k k8s/overlays/${name}" }
}

output "prometheus_scrape_configs" {
  description = "Per region, the scrape_configs of its in-cluster Prometheus."
  value       = { for name, r in module.region : name => r.prometheus_scrape_configs }
}

output "data_ca_cert_pem" {
  description = "The CA the brokers and clients trust for CQL and Kafka over TLS (public certificate; the key stays in the state)."
  value       = tls_self_signed_cert.data_ca.cert_pem
}

output "keyspace_replication" {
  description = "The broker keyspace's replication, as the brokers create it."
  value       = module.plan.keyspace_replication
}

output "monthly_cost" {
  description = "Estimated USD per month per region (see terraform/README.md for what it includes)."
  value       = module.plan.monthly_cost
}
