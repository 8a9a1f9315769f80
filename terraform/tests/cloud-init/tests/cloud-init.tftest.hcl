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

run "data_volumes_are_found_by_volume_id_and_never_reformatted" {
  command = apply

  assert {
    condition = alltrue([for kind in ["cassandra", "kafka", "elasticsearch"] :
      strcontains(local.files[kind]["/root/data-volume.sh"], "/dev/disk/by-id/nvme-Amazon_Elastic_Block_Store_$serial") &&
    strcontains(local.files[kind]["/root/data-volume.sh"], "blkid \"$dev\" >/dev/null 2>&1 || mkfs.xfs -q \"$dev\"")])
    error_message = "each server finds its data volume by id (NVMe serial) and formats only a device without a file system"
  }
  assert {
    condition     = strcontains(local.files.cassandra["/root/data-volume.sh"], "serial=$(echo \"vol-0123456789abcdef0\" | tr -d -)")
    error_message = "the serial is the volume id without its dash"
  }
}

run "cassandra_bootstrap_is_serialized_and_retried" {
  command = apply

  assert {
    condition = (
      length([for i, c in output.cloud_init.cassandra.runcmd : i if c == "until timeout 3 bash -c \"</dev/tcp/10.65.192.10/9042\"; do sleep 15; done"]) == 1 &&
      [for i, c in output.cloud_init.cassandra.runcmd : i if c == "until timeout 3 bash -c \"</dev/tcp/10.65.192.10/9042\"; do sleep 15; done"][0] <
      [for i, c in output.cloud_init.cassandra.runcmd : i if c == "systemctl enable --now cassandra"][0]
    )
    error_message = "node 2 starts Cassandra only once node 1 answers CQL"
  }
  assert {
    condition     = !strcontains(local.cassandra_seed, "/dev/tcp/")
    error_message = "a seed (node 1) waits for nobody"
  }
  assert {
    condition     = strcontains(local.files.cassandra["/etc/systemd/system/cassandra.service.d/restart.conf"], "Restart=on-failure\nRestartSec=60\n")
    error_message = "a refused bootstrap is retried a minute later"
  }
}

run "cassandra_repairs_weekly_on_its_own_weekday" {
  command = apply

  assert {
    condition     = strcontains(local.files.cassandra["/etc/systemd/system/cassandra-repair.timer"], "OnCalendar=Tue *-*-* 02:00:00\n") && strcontains(local.files.cassandra_seed["/etc/systemd/system/cassandra-repair.timer"], "OnCalendar=Mon *-*-* 02:00:00\n")
    error_message = "node n repairs on weekday n"
  }
  assert {
    condition     = strcontains(local.files.cassandra["/etc/systemd/system/cassandra-repair.service"], "ExecStart=/usr/bin/nodetool repair -pr --full system_auth\nExecStart=/usr/bin/nodetool repair -pr --full broker\n")
    error_message = "primary-range full repairs of system_auth and broker"
  }
}

run "only_the_first_node_of_the_first_region_creates_the_roles" {
  command = apply

  assert {
    condition     = !contains(keys(local.files.cassandra), "/root/cassandra-roles.sh") && contains(keys(local.files.cassandra_seed), "/root/cassandra-roles.sh")
    error_message = "one node of the cluster creates the roles"
  }
  assert {
    condition = alltrue([for s in [
      "cqlsh --ssl -u cassandra -p cassandra -e \"ALTER KEYSPACE system_auth WITH replication = {'class': 'NetworkTopologyStrategy', 'us-east-1': 2, 'ap-southeast-2': 2};\" 10.64.192.10 9042",
      "CREATE ROLE IF NOT EXISTS admin WITH PASSWORD = '$admin' AND SUPERUSER = true AND LOGIN = true;",
      "CREATE ROLE IF NOT EXISTS broker WITH PASSWORD = '$broker' AND LOGIN = true;",
      "GRANT CREATE ON ALL KEYSPACES TO broker;",
      "ALTER ROLE cassandra WITH LOGIN = false;",
      "--name /broker/us-east-1/cassandra/admin.password --with-decryption",
      "export SSL_CERTFILE=/etc/cassandra-tls/ca.pem SSL_VALIDATE=true",
    ] : strcontains(local.files.cassandra_seed["/root/cassandra-roles.sh"], s)])
    error_message = "system_auth replicated per DC, roles admin and broker from SSM, the default login disabled, over TLS"
  }
  assert {
    condition     = strcontains(local.files.cassandra_seed["/root/cassandra-roles.sh"], "marker=/var/lib/cassandra/.roles-created\n[ -e \"$marker\" ] && exit 0\n")
    error_message = "once: a marker on the data volume"
  }
}

run "every_server_reloads_a_renewed_certificate_daily" {
  command = apply

  assert {
    condition     = alltrue([for kind in ["cassandra", "kafka", "elasticsearch"] : strcontains(local.files[kind]["/etc/systemd/system/tls-refresh.timer"], "OnCalendar=daily\n")])
    error_message = "a daily TLS refresh timer on every server"
  }
  assert {
    condition     = strcontains(local.files.cassandra["/root/tls-refresh.sh"], "nodetool reloadssl")
    error_message = "Cassandra reloads its TLS material in place"
  }
  assert {
    condition     = strcontains(local.files.kafka["/root/tls-refresh.sh"], "--alter --entity-type brokers --entity-name 1 \\\n  --add-config listener.name.client.ssl.keystore.location=/opt/kafka-config/tls/kafka.p12\n")
    error_message = "Kafka reloads the CLIENT listener's keystore (same path) dynamically"
  }
}

run "elasticsearch_serves_the_data_ca_and_takes_its_logins_from_ssm" {
  command = apply

  assert {
    condition = alltrue([for k, v in {
      "xpack.security.http.ssl.enabled"                 = true
      "xpack.security.http.ssl.key"                     = "certs/node.key"
      "xpack.security.http.ssl.certificate"             = "certs/node.crt"
      "xpack.security.http.ssl.certificate_authorities" = ["certs/ca.crt"]
    } : yamldecode(local.files.elasticsearch["/root/elasticsearch-node.yml"])[k] == v])
    error_message = "HTTPS with the node's key and certificate of the data CA"
  }
  assert {
    condition     = local.files.elasticsearch["/root/elasticsearch-ca.crt"] == var.ca_cert_pem
    error_message = "the data CA arrives intact"
  }
  assert {
    condition     = strcontains(local.files.elasticsearch["/root/elasticsearch-security.sh"], "sed -i '/BEGIN SECURITY AUTO CONFIGURATION/,/END SECURITY AUTO CONFIGURATION/d'") && strcontains(local.files.elasticsearch["/root/elasticsearch-security.sh"], "elasticsearch-keystore add -x -f bootstrap.password")
    error_message = "the package's auto-configured security is replaced; the elastic password comes from SSM as bootstrap.password"
  }
  assert {
    condition     = strcontains(local.files.elasticsearch["/root/elasticsearch-users.sh"], "{\"cluster\":[\"monitor\"],\"indices\":[{\"names\":[\"orders*\"],\"privileges\":[\"all\"]}]}") && !strcontains(local.elasticsearch, "reset-password")
    error_message = "role broker: all on orders*, cluster monitor; no password reset by hand"
  }
}
