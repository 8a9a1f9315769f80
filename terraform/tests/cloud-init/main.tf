################################################################################
# Rendered cloud-init, decoded
################################################################################

locals {
  templates = "${path.module}/../../modules/region/templates"

  cassandra = templatefile("${local.templates}/cassandra.cloud-init.yaml.tftpl", {
    cluster_name       = "broker"
    version            = "5.0.9"
    datacenter         = "ap-southeast-2"
    rack               = "ap-southeast-2b"
    address            = "10.65.196.10"
    seeds              = join(",", var.seeds)
    rf                 = 2
    keystore_param     = "/broker/ap-southeast-2/cassandra/2/keystore.pem"
    ca_cert_pem        = var.ca_cert_pem
    region             = "ap-southeast-2"
    data_volume_script = templatefile("${local.templates}/data-volume.sh.tftpl", { mount = "/var/lib/cassandra" })
  })
  kafka = templatefile("${local.templates}/kafka.cloud-init.yaml.tftpl", {
    version = "4.3.1"
    address = "10.65.192.20"
    region  = "ap-southeast-2"
    password_params = { for p in ["admin", "feed", "broker-ap-southeast-2"] :
    p => "/broker/ap-southeast-2/kafka/${p}.password" }
    keystore_param     = "/broker/ap-southeast-2/kafka/keystore.pem"
    ca_cert_pem        = var.ca_cert_pem
    acls               = jsondecode(replace(file("${path.module}/../../modules/region/kafka-acls.json"), "<region>", "ap-southeast-2"))
    data_volume_script = templatefile("${local.templates}/data-volume.sh.tftpl", { mount = "/var/lib/kafka" })
  })
  elasticsearch = templatefile("${local.templates}/elasticsearch.cloud-init.yaml.tftpl", {
    version            = "8.19"
    address            = "10.65.196.20"
    cluster_name       = "broker-ap-southeast-2"
    data_volume_script = templatefile("${local.templates}/data-volume.sh.tftpl", { mount = "/var/lib/elasticsearch" })
  })

  files = { for kind, doc in { cassandra = local.cassandra, kafka = local.kafka, elasticsearch = local.elasticsearch } :
  kind => { for f in yamldecode(doc).write_files : f.path => f.content } }
}
