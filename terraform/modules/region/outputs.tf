################################################################################
# Region
################################################################################

output "vpc_id" {
  description = "The region's VPC."
  value       = aws_vpc.this.id
}

output "vpc_cidr" {
  description = "The region's VPC block."
  value       = aws_vpc.this.cidr_block
}

output "private_route_table_ids" {
  description = "Route tables of the app and data subnets, by AZ index: the peering module adds the routes to the other regions to each."
  value       = { for az, rt in aws_route_table.private : az => rt.id }
}

################################################################################
# Endpoints the harness and the brokers use
################################################################################

output "broker_url" {
  description = "This region's order API: its regional DNS name over HTTPS (the latency record serves the same load balancer)."
  value       = "https://${local.regional_name}"
}

output "broker_routing_url" {
  description = "Where other regions' brokers reach this one (broker.routing.peers in k8s/overlays/<other region>): the region's name in the private zone, an alias of the internal load balancer (the root creates the record), over peering."
  value       = "http://${var.plan.peer_dns_name}:8080"
}

output "internal_lb" {
  description = "The internal load balancer (broker-to-broker routing on 8080): dns_name and zone_id, for the root's alias record broker.<region>.<internal zone>."
  value = {
    dns_name = aws_lb.internal.dns_name
    zone_id  = aws_lb.internal.zone_id
  }
}

output "kafka_bootstrap" {
  description = "The region's Kafka bootstrap (private; reachable from the brokers and the loadtest security group): SCRAM logins over TLS (SASL_SSL), the certificate signed by var.data_ca."
  value       = "${aws_instance.kafka.private_ip}:9092"
}

output "kafka_password_parameters" {
  description = "Per Kafka principal (admin, feed, broker-<region>), the SSM SecureString holding its SCRAM-SHA-512 password: clients log in on kafka_bootstrap (SASL_SSL) with it."
  value       = { for p, param in aws_ssm_parameter.kafka_password : p => param.name }
}

output "kafka_passwords" {
  description = "Per Kafka principal (admin, feed, broker-<region>), its password (the value of the SSM parameter), for the root's kubernetes_secrets."
  value       = { for p, pw in random_password.kafka : p => pw.result }
  sensitive   = true
}

output "cassandra_password_parameters" {
  description = "Per Cassandra role (admin, broker), the SSM SecureString holding its password in this region."
  value       = { for role, param in aws_ssm_parameter.cassandra_password : role => param.name }
}

output "cql_contact_points" {
  description = "The DC's Cassandra nodes, host:port (private, TLS)."
  value       = [for n in aws_instance.cassandra : "${n.private_ip}:9042"]
}

output "datacenter" {
  description = "The Cassandra DC name of this region (the driver's local-datacenter)."
  value       = var.plan.datacenter
}

output "elasticsearch_url" {
  description = "Elasticsearch 8 REST endpoint (TLS, the certificate's SAN is the IP, signed by var.data_ca)."
  value       = "https://${aws_instance.elasticsearch.private_ip}:9200"
}

output "elasticsearch_password_parameters" {
  description = "Per Elasticsearch user (elastic: superuser; broker: role broker, indices orders*), the SSM SecureString holding its password."
  value       = { for user, param in aws_ssm_parameter.elasticsearch_password : user => param.name }
}

output "elasticsearch_broker_password" {
  description = "The broker user's Elasticsearch password (the value of elasticsearch_password_parameters.broker), for the root's kubernetes_secrets."
  value       = random_password.elasticsearch["broker"].result
  sensitive   = true
}

################################################################################
# Data volumes and backups
################################################################################

output "data_volume_ids" {
  description = "Per server (cassandra-<n>, kafka, elasticsearch), its gp3 data volume: it outlives the instance and is snapshotted daily (14 kept)."
  value       = { for server, volume in aws_ebs_volume.data : server => volume.id }
}

################################################################################
# EKS and Prometheus
################################################################################

output "eks_cluster_name" {
  description = "The EKS cluster the brokers run in: aws eks update-kubeconfig --region <region> --name <this>, then kubectl apply -k k8s/overlays/<region>."
  value       = aws_eks_cluster.this.name
}

output "loadtest_security_group_id" {
  description = "Attach to a host in an app subnet to run loadtest/bin/loadtest against this region (CQL, Kafka, internal load balancer)."
  value       = aws_security_group.loadtest.id
}

output "prometheus_scrape_configs" {
  description = "scrape_configs for the in-cluster Prometheus (service account monitoring/prometheus has ec2:DescribeInstances through Pod Identity): the servers by tag, the brokers by Kubernetes pod discovery."
  value = yamlencode([
    {
      job_name        = "cassandra"
      ec2_sd_configs  = [{ region = var.region, port = 7070, filters = [{ name = "tag:Role", values = ["cassandra"] }, { name = "tag:Project", values = [var.name] }] }]
      relabel_configs = [{ source_labels = ["__meta_ec2_tag_Datacenter"], target_label = "dc" }]
    },
    {
      job_name       = "kafka"
      ec2_sd_configs = [{ region = var.region, port = 7071, filters = [{ name = "tag:Role", values = ["kafka"] }, { name = "tag:Project", values = [var.name] }] }]
    },
    {
      job_name              = "broker-service"
      metrics_path          = "/actuator/prometheus"
      kubernetes_sd_configs = [{ role = "pod" }]
      relabel_configs = [
        { source_labels = ["__meta_kubernetes_pod_label_app_kubernetes_io_name"], regex = "broker-service", action = "keep" },
        { source_labels = ["__meta_kubernetes_pod_container_port_number"], regex = "8080", action = "keep" },
      ]
    },
  ])
}
