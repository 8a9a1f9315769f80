# The cloud-init documents of modules/region, rendered and decoded offline.

run "every_document_is_cloud_config_yaml" {
  command = apply

  assert {
    condition     = alltrue([for kind in ["cassandra", "kafka", "elasticsearch"] : startswith(local.files[kind]["/root/data-volume.sh"], "# The gp3 data volume")])
    error_message = "each server mounts its gp3 data volume first"
  }
  assert {
    condition     = alltrue([for kind, doc in output.cloud_init : length(doc.runcmd) > 0 && length(doc.write_files) > 0])
    error_message = "each document writes files and runs commands"
  }
}

run "cassandra_is_a_tls_node_of_its_dc_with_seeds_in_every_region" {
  command = apply

  assert {
    condition     = output.cassandra_yaml.endpoint_snitch == "GossipingPropertyFileSnitch"
    error_message = "GossipingPropertyFileSnitch"
  }
  assert {
    condition     = output.cassandra_yaml.seed_provider[0].parameters[0].seeds == "10.64.192.10,10.65.192.10"
    error_message = "one seed per DC, every region"
  }
  assert {
    condition     = output.cassandra_yaml.listen_address == "10.65.196.10" && output.cassandra_yaml.rpc_address == "10.65.196.10" && output.cassandra_yaml.storage_port == 7000 && output.cassandra_yaml.native_transport_port == 9042
    error_message = "the node's fixed address, internode 7000, CQL 9042"
  }
  assert {
    condition     = output.cassandra_yaml.server_encryption_options.internode_encryption == "all" && output.cassandra_yaml.server_encryption_options.require_endpoint_verification
    error_message = "internode TLS between every pair of nodes, certificates checked against their IPs"
  }
  assert {
    condition     = output.cassandra_yaml.client_encryption_options.enabled && !output.cassandra_yaml.client_encryption_options.optional
    error_message = "client (CQL) TLS, required"
  }
  assert {
    condition     = output.cassandra_yaml.allocate_tokens_for_local_replication_factor == 2
    error_message = "token allocation for the DC's RF"
  }
  assert {
    condition     = strcontains(local.files.cassandra["/root/cassandra-rackdc.properties"], "dc=ap-southeast-2\nrack=ap-southeast-2b\n")
    error_message = "dc = the region's DC name, rack = its AZ"
  }
  assert {
    condition     = startswith(local.files.cassandra["/etc/cassandra-tls/ca.pem"], "-----BEGIN CERTIFICATE-----\nMIIBfake\n")
    error_message = "the CA arrives intact (indentation of a multi-line PEM)"
  }
  assert {
    condition     = anytrue([for c in output.cloud_init.cassandra.runcmd : strcontains(jsonencode(c), "cassandra-5.0.9")]) && !strcontains(local.cassandra, "PRIVATE KEY")
    error_message = "installs Cassandra 5.0.9; no private key in user data"
  }
}

run "kafka_is_one_kraft_node" {
  command = apply

  assert {
    condition     = strcontains(local.files.kafka["/opt/kafka-config/server.properties"], "process.roles=broker,controller\n") && strcontains(local.files.kafka["/opt/kafka-config/server.properties"], "advertised.listeners=CLIENT://10.65.192.20:9092\n")
    error_message = "combined broker and controller, advertised on its fixed address"
  }
}

run "kafka_serves_tls_with_a_key_from_ssm_chained_to_the_data_ca" {
  command = apply

  assert {
    condition     = strcontains(local.files.kafka["/opt/kafka-config/server.properties"], "ssl.keystore.type=PKCS12\nssl.keystore.location=/opt/kafka-config/tls/kafka.p12\nssl.keystore.password=@KEYSTORE_PASSWORD@\n")
    error_message = "the broker's keystore is made at boot; its password is a placeholder filled then"
  }
  assert {
    condition     = local.files.kafka["/opt/kafka-config/tls/ca.pem"] == var.ca_cert_pem && strcontains(local.files.kafka["/opt/kafka-config/server.properties"], "ssl.truststore.type=PEM\nssl.truststore.location=/opt/kafka-config/tls/ca.pem\n")
    error_message = "the broker trusts the data CA (its own inter-broker connections)"
  }
  assert {
    condition     = strcontains(local.files.kafka["/root/kafka-logins.sh"], "aws ssm get-parameter --region ap-southeast-2 --name /broker/ap-southeast-2/kafka/keystore.pem --with-decryption") && strcontains(local.files.kafka["/root/kafka-logins.sh"], "-passout env:STORE\nrm /opt/kafka-config/tls/kafka.pem\n")
    error_message = "the key comes from SSM at boot, becomes the PKCS12 keystore (password off the command line) and its PEM is removed"
  }
  assert {
    condition     = strcontains(local.files.kafka["/root/kafka-logins.sh"], "'security.protocol=SASL_SSL' 'sasl.mechanism=SCRAM-SHA-512' \\\n  'ssl.truststore.type=PEM' 'ssl.truststore.location=/opt/kafka-config/tls/ca.pem'")
    error_message = "the admin client (ACL grants) logs in over TLS, trusting the data CA"
  }
}

run "kafka_takes_only_logins_and_grants_only_the_access_table" {
  command = apply

  assert {
    condition     = strcontains(local.files.kafka["/opt/kafka-config/server.properties"], "listener.security.protocol.map=CLIENT:SASL_SSL,CONTROLLER:SASL_PLAINTEXT\n") && strcontains(local.files.kafka["/opt/kafka-config/server.properties"], "sasl.enabled.mechanisms=SCRAM-SHA-512\n")
    error_message = "clients log in over TLS (SCRAM-SHA-512), the controller (this host only) logs in"
  }
  assert {
    condition     = strcontains(local.files.kafka["/opt/kafka-config/server.properties"], "authorizer.class.name=org.apache.kafka.metadata.authorizer.StandardAuthorizer\nallow.everyone.if.no.acl.found=false\nsuper.users=User:admin\n")
    error_message = "ACLs enforced, nothing allowed without one, only admin a super user"
  }
  assert {
    condition     = !strcontains(local.kafka, "password=\"") || strcontains(local.kafka, "password=\"@ADMIN_PASSWORD@\"")
    error_message = "no password in user data: the admin's is a placeholder filled at boot"
  }
  assert {
    condition     = strcontains(local.files.kafka["/root/kafka-logins.sh"], "aws ssm get-parameter --region ap-southeast-2 --name /broker/ap-southeast-2/kafka/feed.password --with-decryption")
    error_message = "each principal's password comes from SSM at boot"
  }
  assert {
    condition     = strcontains(local.files.kafka["/root/kafka-acls.sh"], "acls --add --allow-principal User:feed --topic ticks --resource-pattern-type literal --operation Create --operation Describe --operation Write\n")
    error_message = "the feed may create, describe and write ticks"
  }
  assert {
    condition     = strcontains(local.files.kafka["/root/kafka-acls.sh"], "acls --add --allow-principal User:broker-ap-southeast-2 --group relay-ap-southeast-2-to- --resource-pattern-type prefixed --operation Read --operation Describe\n")
    error_message = "the region's brokers join only the region's relay groups (a prefix)"
  }
  assert {
    condition     = length(regexall("acls --add ", local.files.kafka["/root/kafka-acls.sh"])) == 9
    error_message = "one command per row of kafka-acls.json"
  }
}

run "elasticsearch_is_a_single_8x_node" {
  command = apply

  assert {
    condition     = strcontains(local.files.elasticsearch["/etc/yum.repos.d/elasticsearch.repo"], "packages/8.x/yum") && anytrue([for c in output.cloud_init.elasticsearch.runcmd : strcontains(jsonencode(c), "elasticsearch-8.19.*")])
    error_message = "Elasticsearch 8.19 from the 8.x repository"
  }
}
