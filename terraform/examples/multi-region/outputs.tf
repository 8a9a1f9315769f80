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
  description = "Per region, where other regions' brokers reach it (broker.routing.peers): http://broker.<region>.<internal zone>:8080, an alias of its internal load balancer."
  value       = { for name, r in module.region : name => r.broker_routing_url }
}

output "internal_zone" {
  description = "The private hosted zone every region's VPC resolves: name and id."
  value = {
    name    = aws_route53_zone.internal.name
    zone_id = aws_route53_zone.internal.zone_id
  }
}

output "node_groups" {
  description = "Per region, the EKS node group's instance type and sizes (the plan's, from the manifests' requests)."
  value       = { for name, r in module.plan.regions : name => r.eks }
}

output "images" {
  description = "The images to deploy, by digest: <image_registry>/<image>@<digest> (the home region's repositories)."
  value       = local.image_refs
}

output "regional_images" {
  description = "Per region, the same images from that region's ECR replica (the registry host's region replaced), so each region's nodes pull locally; the digests are the same in every replica."
  value = var.image_digests == null ? {} : { for name in keys(module.plan.regions) : name => {
    for key, image in local.images : key => "${replace(var.image_registry, "/\\.dkr\\.ecr\\.[a-z0-9-]+\\.amazonaws\\.com/", ".dkr.ecr.${name}.amazonaws.com")}/${image}@${var.image_digests[key]}"
  } }
}

output "ecr_repository_urls" {
  description = "The repositories to push to (home region): docker push <url>:<version>, then pass the pushed digests as image_digests."
  value       = { for key, repo in aws_ecr_repository.image : key => repo.repository_url }
}

output "kubernetes" {
  description = "Per region, what the Kubernetes overlays take from Terraform (the plan's: namespace, NodePort, peer name, node group, the generated kustomize component with the images by digest); k8s/bin/from-terraform reads it with kubernetes_secrets."
  value       = module.plan.kubernetes
}

output "kubernetes_secrets" {
  description = "Per region, the files of the brokers' and the feed's Secrets (k8s/bin/from-terraform writes them into the overlay): the data CA, the Cassandra, Kafka and Elasticsearch logins, the region's Ed25519 peer key (base64 PKCS#8 DER), the token key (base64, the same in every region), the operator's login, and every region's peer public key (base64 X.509 DER)."
  sensitive   = true
  value = { for name, r in module.region : name => {
    "data-ca.crt"            = tls_self_signed_cert.data_ca.cert_pem
    "cassandra-username"     = "broker"
    "cassandra-password"     = random_password.cassandra["broker"].result
    "kafka-password"         = r.kafka_passwords["broker-${name}"]
    "feed-kafka-password"    = r.kafka_passwords["feed"]
    "elasticsearch-username" = "broker"
    "elasticsearch-password" = r.elasticsearch_broker_password
    "peer-private-key"       = replace(tls_private_key.peer[name].private_key_pem_pkcs8, local.pem_armour, "")
    "token-key"              = random_bytes.token_key.base64
    "operator-username"      = "operator"
    "operator-password"      = random_password.operator[name].result
    "peer-public-keys"       = { for peer, key in tls_private_key.peer : peer => replace(key.public_key_pem, local.pem_armour, "") }
  } }
}

output "kubectl" {
  description = "Per region, the command that adds its EKS cluster to ~/.kube/config as the context named like the region (then, after k8s/bin/from-terraform: kubectl --context <region> apply -k k8s/overlays/<region>)."
  value = { for name, r in module.region : name =>
  "aws eks update-kubeconfig --region ${name} --name ${r.eks_cluster_name} --alias ${name}" }
}

output "prometheus_scrape_configs" {
  description = "Per region, the scrape_configs of its in-cluster Prometheus."
  value       = { for name, r in module.region : name => r.prometheus_scrape_configs }
}

output "data_ca_cert_pem" {
  description = "The CA the brokers and clients trust for CQL, Kafka and Elasticsearch over TLS (public certificate; the key stays in the state)."
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
