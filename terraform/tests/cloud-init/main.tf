################################################################################
# Rendered cloud-init, decoded
################################################################################

locals {
  templates = "${path.module}/../../modules/region/templates"

  # node 2 of ap-southeast-2: bootstraps after node 1, repairs on Tuesdays, creates no roles
  cassandra = templatefile("${local.templates}/cassandra.cloud-init.yaml.tftpl", {
    cluster_name            = "broker"
    version                 = "5.0.9"
    datacenter              = "ap-southeast-2"
    rack                    = "ap-southeast-2b"
    address                 = "10.65.196.10"
    seeds                   = join(",", var.seeds)
    rf                      = 2
    keystore_param          = "/broker/ap-southeast-2/cassandra/2/keystore.pem"
    ca_cert_pem             = var.ca_cert_pem
    region                  = "ap-southeast-2"
    bootstrap_after         = "10.65.192.10"
    repair_day              = "Tue"
    creates_roles           = false
    system_auth_replication = ""
    password_params         = { admin = "/broker/ap-southeast-2/cassandra/admin.password", broker = "/broker/ap-southeast-2/cassandra/broker.password" }
    data_volume_script = templatefile("${local.templates}/data-volume.sh.tftpl", {
      mount     = "/var/lib/cassandra"
      volume_id = "vol-0123456789abcdef0"
    })
  })
  # node 1 of us-east-1, the first region of the file: a seed, repairs on Mondays, creates the roles
  cassandra_seed = templatefile("${local.templates}/cassandra.cloud-init.yaml.tftpl", {
    cluster_name            = "broker"
    version                 = "5.0.9"
    datacenter              = "us-east-1"
    rack                    = "us-east-1a"
    address                 = "10.64.192.10"
    seeds                   = join(",", var.seeds)
    rf                      = 2
    keystore_param          = "/broker/us-east-1/cassandra/1/keystore.pem"
    ca_cert_pem             = var.ca_cert_pem
    region                  = "us-east-1"
    bootstrap_after         = ""
    repair_day              = "Mon"
    creates_roles           = true
    system_auth_replication = "{'class': 'NetworkTopologyStrategy', 'us-east-1': 2, 'ap-southeast-2': 2}"
    password_params         = { admin = "/broker/us-east-1/cassandra/admin.password", broker = "/broker/us-east-1/cassandra/broker.password" }
    data_volume_script = templatefile("${local.templates}/data-volume.sh.tftpl", {
      mount     = "/var/lib/cassandra"
      volume_id = "vol-0fedcba9876543210"
    })
  })
  kafka = templatefile("${local.templates}/kafka.cloud-init.yaml.tftpl", {
    version = "4.3.1"
    address = "10.65.192.20"
    region  = "ap-southeast-2"
    password_params = { for p in ["admin", "feed", "broker-ap-southeast-2"] :
    p => "/broker/ap-southeast-2/kafka/${p}.password" }
    keystore_param = "/broker/ap-southeast-2/kafka/keystore.pem"
    ca_cert_pem    = var.ca_cert_pem
    acls           = jsondecode(replace(file("${path.module}/../../modules/region/kafka-acls.json"), "<region>", "ap-southeast-2"))
    data_volume_script = templatefile("${local.templates}/data-volume.sh.tftpl", {
      mount     = "/var/lib/kafka"
      volume_id = "vol-0aaaaaaaaaaaaaaaa"
    })
  })
  elasticsearch = templatefile("${local.templates}/elasticsearch.cloud-init.yaml.tftpl", {
    version         = "8.19"
    address         = "10.65.196.20"
    cluster_name    = "broker-ap-southeast-2"
    region          = "ap-southeast-2"
    keystore_param  = "/broker/ap-southeast-2/elasticsearch/keystore.pem"
    ca_cert_pem     = var.ca_cert_pem
    password_params = { elastic = "/broker/ap-southeast-2/elasticsearch/elastic.password", broker = "/broker/ap-southeast-2/elasticsearch/broker.password" }
    data_volume_script = templatefile("${local.templates}/data-volume.sh.tftpl", {
      mount     = "/var/lib/elasticsearch"
      volume_id = "vol-0bbbbbbbbbbbbbbbb"
    })
  })

  files = { for kind, doc in { cassandra = local.cassandra, cassandra_seed = local.cassandra_seed, kafka = local.kafka, elasticsearch = local.elasticsearch } :
  kind => { for f in yamldecode(doc).write_files : f.path => f.content } }
}
