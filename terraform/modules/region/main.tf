################################################################################
# Region
################################################################################

locals {
  prefix = "${var.name}-${var.region}"
  tags = merge(var.tags, {
    Project     = var.name
    Region      = var.region
    Datacenter  = var.plan.datacenter
    ManagedBy   = "terraform"
    Environment = lookup(var.tags, "Environment", "prototype")
  })
  azs = slice(data.aws_availability_zones.this.names, 0, 3)

  # index k of every subnet list is availability zone k
  az_index = { for k in range(3) : tostring(k) => k }

  # Node n (1-based) in AZ n-1. Bootstrap is serialized within the DC: node n > 1 starts Cassandra
  # only once node n-1 answers CQL (a node opens 9042 after it has joined), since Cassandra refuses
  # to bootstrap two nodes at once. Repair is staggered the same way: node n repairs on weekday n.
  cassandra_nodes = { for n, ip in var.plan.cassandra.ips : tostring(n + 1) => {
    ip              = ip
    az              = n % 3
    bootstrap_after = n == 0 ? "" : var.plan.cassandra.ips[n - 1]
    repair_day      = element(["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"], n)
  } }

  cross_region = { for rule in var.cross_region_ingress : rule.target => rule.cidrs }

  # Kafka's logins and ACLs: infra's KafkaAccess table (kafka-acls.json is checked against it by the
  # terraform module's KafkaAclsFileTests); "<region>" stands for this region
  kafka_principals = toset(["admin", "feed", "broker-${var.region}"])
  kafka_acls       = jsondecode(replace(file("${path.module}/kafka-acls.json"), "<region>", var.region))
}

data "aws_availability_zones" "this" {
  #checkov:skip=CKV_AWS_394:the first three zones by name are used (slice 0-3); a zone AWS adds later sorts after them, so the result the VPC depends on does not change
  region = var.region
  state  = "available"
}

# Amazon Linux 2023: SSM agent and the AWS CLI preinstalled (cloud-init fetches TLS material with it).
data "aws_ssm_parameter" "al2023" {
  region = var.region
  name   = "/aws/service/ami-amazon-linux-latest/al2023-ami-kernel-default-x86_64"
}

################################################################################
# VPC: three AZs; public (load balancers, NAT), app (EKS), data (Cassandra, Kafka, Elasticsearch)
################################################################################

resource "aws_vpc" "this" {
  region               = var.region
  cidr_block           = var.plan.vpc_cidr
  enable_dns_support   = true
  enable_dns_hostnames = true
  tags                 = merge(local.tags, { Name = local.prefix })
}

# No rule in the default security group: every instance gets an explicit one.
resource "aws_default_security_group" "this" {
  region = var.region
  vpc_id = aws_vpc.this.id
  tags   = merge(local.tags, { Name = "${local.prefix}-default-closed" })
}

resource "aws_flow_log" "this" {
  region               = var.region
  vpc_id               = aws_vpc.this.id
  traffic_type         = "REJECT"
  log_destination_type = "cloud-watch-logs"
  log_destination      = aws_cloudwatch_log_group.flow.arn
  iam_role_arn         = aws_iam_role.flow_log.arn
  tags                 = local.tags
}

resource "aws_cloudwatch_log_group" "flow" {
  region            = var.region
  name              = "/${var.name}/${var.region}/vpc-flow-rejects"
  retention_in_days = 365
  kms_key_id        = aws_kms_key.this.arn
  tags              = local.tags
}

resource "aws_internet_gateway" "this" {
  region = var.region
  vpc_id = aws_vpc.this.id
  tags   = merge(local.tags, { Name = local.prefix })
}

resource "aws_subnet" "public" {
  for_each                = local.az_index
  region                  = var.region
  vpc_id                  = aws_vpc.this.id
  cidr_block              = var.plan.subnets.public[each.value]
  availability_zone       = local.azs[each.value]
  map_public_ip_on_launch = false
  tags                    = merge(local.tags, { Name = "${local.prefix}-public-${local.azs[each.value]}", "kubernetes.io/role/elb" = "1" })
}

resource "aws_subnet" "app" {
  for_each          = local.az_index
  region            = var.region
  vpc_id            = aws_vpc.this.id
  cidr_block        = var.plan.subnets.app[each.value]
  availability_zone = local.azs[each.value]
  tags              = merge(local.tags, { Name = "${local.prefix}-app-${local.azs[each.value]}", "kubernetes.io/role/internal-elb" = "1" })
}

resource "aws_subnet" "data" {
  for_each          = local.az_index
  region            = var.region
  vpc_id            = aws_vpc.this.id
  cidr_block        = var.plan.subnets.data[each.value]
  availability_zone = local.azs[each.value]
  tags              = merge(local.tags, { Name = "${local.prefix}-data-${local.azs[each.value]}" })
}

resource "aws_eip" "nat" {
  for_each = var.single_nat_gateway ? { "0" = 0 } : local.az_index
  region   = var.region
  domain   = "vpc"
  tags     = merge(local.tags, { Name = "${local.prefix}-nat-${each.key}" })
}

resource "aws_nat_gateway" "this" {
  for_each      = aws_eip.nat
  region        = var.region
  allocation_id = each.value.id
  subnet_id     = aws_subnet.public[each.key].id
  tags          = merge(local.tags, { Name = "${local.prefix}-${each.key}" })
}

resource "aws_route_table" "public" {
  region = var.region
  vpc_id = aws_vpc.this.id
  tags   = merge(local.tags, { Name = "${local.prefix}-public" })
}

resource "aws_route" "public_internet" {
  region                 = var.region
  route_table_id         = aws_route_table.public.id
  destination_cidr_block = "0.0.0.0/0"
  gateway_id             = aws_internet_gateway.this.id
}

resource "aws_route_table_association" "public" {
  for_each       = aws_subnet.public
  region         = var.region
  subnet_id      = each.value.id
  route_table_id = aws_route_table.public.id
}

# One private route table per AZ (app and data subnets of the AZ share it); the peering module adds
# the routes to the other regions' VPCs to each of them.
resource "aws_route_table" "private" {
  for_each = local.az_index
  region   = var.region
  vpc_id   = aws_vpc.this.id
  tags     = merge(local.tags, { Name = "${local.prefix}-private-${local.azs[each.value]}" })
}

resource "aws_route" "private_nat" {
  for_each               = aws_route_table.private
  region                 = var.region
  route_table_id         = each.value.id
  destination_cidr_block = "0.0.0.0/0"
  nat_gateway_id         = var.single_nat_gateway ? aws_nat_gateway.this["0"].id : aws_nat_gateway.this[each.key].id
}

resource "aws_route_table_association" "app" {
  for_each       = aws_subnet.app
  region         = var.region
  subnet_id      = each.value.id
  route_table_id = aws_route_table.private[each.key].id
}

resource "aws_route_table_association" "data" {
  for_each       = aws_subnet.data
  region         = var.region
  subnet_id      = each.value.id
  route_table_id = aws_route_table.private[each.key].id
}

################################################################################
# Encryption and instance identity
################################################################################

resource "aws_kms_key" "this" {
  region              = var.region
  description         = "${local.prefix}: EBS volumes, node TLS keys in SSM, EKS secrets, logs"
  enable_key_rotation = true
  policy              = data.aws_iam_policy_document.kms.json
  tags                = local.tags
}

data "aws_caller_identity" "this" {}

data "aws_iam_policy_document" "kms" {
  #checkov:skip=CKV_AWS_109:a KMS key policy's resource is always "*" (the key itself); this is AWS's default statement delegating to the account's IAM policies
  #checkov:skip=CKV_AWS_111:same as CKV_AWS_109
  #checkov:skip=CKV_AWS_356:same as CKV_AWS_109
  statement {
    sid       = "AccountAdministers"
    actions   = ["kms:*"]
    resources = ["*"]
    principals {
      type        = "AWS"
      identifiers = ["arn:aws:iam::${data.aws_caller_identity.this.account_id}:root"]
    }
  }
  statement {
    sid       = "CloudWatchLogsEncrypt"
    actions   = ["kms:Encrypt*", "kms:Decrypt*", "kms:ReEncrypt*", "kms:GenerateDataKey*", "kms:Describe*"]
    resources = ["*"]
    principals {
      type        = "Service"
      identifiers = ["logs.${var.region}.amazonaws.com"]
    }
  }
  # The EKS node group's launch template encrypts the root volume with this key, and its Auto Scaling
  # group launches the instances as the service-linked role AWSServiceRoleForAutoScaling: without
  # these two statements ("Required KMS key policy for use with encrypted volumes", EC2 Auto Scaling
  # user guide) no node launches. The role must exist before this policy is put (KMS refuses a policy
  # naming an unknown principal); it exists in every account that ever used Auto Scaling, and it is not
  # created here because creating it where it exists fails: docs/guide/aws-runbooks.md, first apply.
  statement {
    sid       = "AutoScalingUsesKey"
    actions   = ["kms:Encrypt", "kms:Decrypt", "kms:ReEncrypt*", "kms:GenerateDataKey*", "kms:DescribeKey"]
    resources = ["*"]
    principals {
      type        = "AWS"
      identifiers = ["arn:aws:iam::${data.aws_caller_identity.this.account_id}:role/aws-service-role/autoscaling.amazonaws.com/AWSServiceRoleForAutoScaling"]
    }
  }
  statement {
    sid       = "AutoScalingAttachesPersistentResources"
    actions   = ["kms:CreateGrant"]
    resources = ["*"]
    principals {
      type        = "AWS"
      identifiers = ["arn:aws:iam::${data.aws_caller_identity.this.account_id}:role/aws-service-role/autoscaling.amazonaws.com/AWSServiceRoleForAutoScaling"]
    }
    condition {
      test     = "Bool"
      variable = "kms:GrantIsForAWSResource"
      values   = ["true"]
    }
  }
}

locals {
  # One role per server kind: a host reads only its own kind's parameters (/<name>/<region>/<kind>/*),
  # so the Elasticsearch host cannot read the Kafka admin's password nor a Cassandra node's key.
  server_kinds = toset(["cassandra", "kafka", "elasticsearch"])
}

data "aws_iam_policy_document" "ec2_assume" {
  statement {
    actions = ["sts:AssumeRole"]
    principals {
      type        = "Service"
      identifiers = ["ec2.amazonaws.com"]
    }
  }
}

# The data servers: Session Manager instead of SSH, and read access to their own kind's parameters.
resource "aws_iam_role" "server" {
  for_each           = local.server_kinds
  name               = "${local.prefix}-${each.key}"
  assume_role_policy = data.aws_iam_policy_document.ec2_assume.json
  tags               = merge(local.tags, { Role = each.key })
}

resource "aws_iam_role_policy_attachment" "server_ssm" {
  for_each   = local.server_kinds
  role       = aws_iam_role.server[each.key].name
  policy_arn = "arn:aws:iam::aws:policy/AmazonSSMManagedInstanceCore"
}

data "aws_iam_policy_document" "server_secrets" {
  for_each = local.server_kinds
  statement {
    sid       = "ReadOwnParameters"
    actions   = ["ssm:GetParameter"]
    resources = ["arn:aws:ssm:${var.region}:${data.aws_caller_identity.this.account_id}:parameter/${var.name}/${var.region}/${each.key}/*"]
  }
  # SSM decrypts a SecureString under the encryption context PARAMETER_ARN: the key opens only this
  # kind's parameters, and only through SSM
  statement {
    sid       = "DecryptOwnParameters"
    actions   = ["kms:Decrypt"]
    resources = [aws_kms_key.this.arn]
    condition {
      test     = "StringEquals"
      variable = "kms:ViaService"
      values   = ["ssm.${var.region}.amazonaws.com"]
    }
    condition {
      test     = "StringLike"
      variable = "kms:EncryptionContext:PARAMETER_ARN"
      values   = ["arn:aws:ssm:${var.region}:${data.aws_caller_identity.this.account_id}:parameter/${var.name}/${var.region}/${each.key}/*"]
    }
  }
}

resource "aws_iam_role_policy" "server_secrets" {
  for_each = local.server_kinds
  name     = "read-${each.key}-secrets"
  role     = aws_iam_role.server[each.key].id
  policy   = data.aws_iam_policy_document.server_secrets[each.key].json
}

resource "aws_iam_instance_profile" "server" {
  for_each = local.server_kinds
  name     = "${local.prefix}-${each.key}"
  role     = aws_iam_role.server[each.key].name
  tags     = merge(local.tags, { Role = each.key })
}

data "aws_iam_policy_document" "flow_log_assume" {
  statement {
    actions = ["sts:AssumeRole"]
    principals {
      type        = "Service"
      identifiers = ["vpc-flow-logs.amazonaws.com"]
    }
  }
}

resource "aws_iam_role" "flow_log" {
  name               = "${local.prefix}-flow-log"
  assume_role_policy = data.aws_iam_policy_document.flow_log_assume.json
  tags               = local.tags
}

data "aws_iam_policy_document" "flow_log" {
  statement {
    actions   = ["logs:CreateLogStream", "logs:PutLogEvents", "logs:DescribeLogStreams"]
    resources = ["${aws_cloudwatch_log_group.flow.arn}:*"]
  }
}

resource "aws_iam_role_policy" "flow_log" {
  name   = "write-flow-log"
  role   = aws_iam_role.flow_log.id
  policy = data.aws_iam_policy_document.flow_log.json
}

################################################################################
# Security groups: exactly the ports of regions-plan's `ports` matrix
################################################################################

resource "aws_security_group" "cassandra" {
  region      = var.region
  name        = "${local.prefix}-cassandra"
  description = "Cassandra nodes: internode 7000 from the cluster, CQL 9042 from this region only"
  vpc_id      = aws_vpc.this.id
  tags        = merge(local.tags, { Name = "${local.prefix}-cassandra" })
}

resource "aws_security_group" "kafka" {
  region      = var.region
  name        = "${local.prefix}-kafka"
  description = "Kafka (KRaft): 9092 from the brokers and the loadtest group, 9093 from itself"
  vpc_id      = aws_vpc.this.id
  tags        = merge(local.tags, { Name = "${local.prefix}-kafka" })
}

resource "aws_security_group" "elasticsearch" {
  region      = var.region
  name        = "${local.prefix}-elasticsearch"
  description = "Elasticsearch: 9200 from the brokers"
  vpc_id      = aws_vpc.this.id
  tags        = merge(local.tags, { Name = "${local.prefix}-elasticsearch" })
}

resource "aws_security_group" "eks_nodes" {
  region      = var.region
  name        = "${local.prefix}-eks-nodes"
  description = "EKS worker nodes (brokers, Prometheus): the broker NodePort from the two load balancers"
  vpc_id      = aws_vpc.this.id
  tags        = merge(local.tags, { Name = "${local.prefix}-eks-nodes" })
}

resource "aws_security_group" "public_lb" {
  region      = var.region
  name        = "${local.prefix}-public-lb"
  description = "Order API load balancer: HTTPS 443 from the internet"
  vpc_id      = aws_vpc.this.id
  tags        = merge(local.tags, { Name = "${local.prefix}-public-lb" })
}

resource "aws_security_group" "internal_lb" {
  region      = var.region
  name        = "${local.prefix}-internal-lb"
  description = "Broker-to-broker routing: 8080 from the app subnets of every region and from the loadtest group"
  vpc_id      = aws_vpc.this.id
  tags        = merge(local.tags, { Name = "${local.prefix}-internal-lb" })
}

resource "aws_security_group" "loadtest" {
  #checkov:skip=CKV2_AWS_5:attached by the operator to the host that runs loadtest/bin/loadtest (terraform/README.md); nothing of this module uses it
  region      = var.region
  name        = "${local.prefix}-loadtest"
  description = "Attach to a loadtest host in an app subnet: reaches CQL, Kafka and the internal load balancer"
  vpc_id      = aws_vpc.this.id
  tags        = merge(local.tags, { Name = "${local.prefix}-loadtest" })
}

locals {
  # receiving group, port, and the group it admits (same region: security group references)
  group_ingress = {
    cassandra_internode   = { sg = "cassandra", port = 7000, from = "cassandra", what = "Cassandra internode TLS within the DC" }
    cassandra_cql_brokers = { sg = "cassandra", port = 9042, from = "eks_nodes", what = "CQL (TLS) from the brokers" }
    cassandra_cql_load    = { sg = "cassandra", port = 9042, from = "loadtest", what = "CQL (TLS) from the loadtest host (floor writes)" }
    cassandra_exporter    = { sg = "cassandra", port = 7070, from = "eks_nodes", what = "JMX exporter scraped by Prometheus" }
    kafka_brokers         = { sg = "kafka", port = 9092, from = "eks_nodes", what = "Kafka clients (SCRAM over TLS): the brokers" }
    kafka_load            = { sg = "kafka", port = 9092, from = "loadtest", what = "Kafka clients (SCRAM over TLS): the loadtest tick producer" }
    kafka_controller      = { sg = "kafka", port = 9093, from = "kafka", what = "KRaft controller" }
    kafka_exporter        = { sg = "kafka", port = 7071, from = "eks_nodes", what = "JMX exporter scraped by Prometheus" }
    es_brokers            = { sg = "elasticsearch", port = 9200, from = "eks_nodes", what = "Elasticsearch REST (TLS) from the brokers" }
    nodeport_public       = { sg = "eks_nodes", port = var.broker_node_port, from = "public_lb", what = "order API from the public load balancer" }
    nodeport_internal     = { sg = "eks_nodes", port = var.broker_node_port, from = "internal_lb", what = "routed orders from the internal load balancer" }
    routing_load          = { sg = "internal_lb", port = 8080, from = "loadtest", what = "broker calls of the loadtest harness" }
  }
  groups = {
    cassandra     = aws_security_group.cassandra.id
    kafka         = aws_security_group.kafka.id
    elasticsearch = aws_security_group.elasticsearch.id
    eks_nodes     = aws_security_group.eks_nodes.id
    public_lb     = aws_security_group.public_lb.id
    internal_lb   = aws_security_group.internal_lb.id
    loadtest      = aws_security_group.loadtest.id
  }

  # other regions, by CIDR (security group references do not cross regions)
  cidr_ingress = merge(
    { for c in lookup(local.cross_region, "cassandra", []) : "internode-${c}" => { sg = "cassandra", port = 7000, cidr = c, what = "Cassandra internode TLS from another region" } },
    { for c in lookup(local.cross_region, "internal load balancer", []) : "routing-${c}" => { sg = "internal_lb", port = 8080, cidr = c, what = "broker routing from another region" } },
    { for c in var.plan.subnets.app : "routing-own-${c}" => { sg = "internal_lb", port = 8080, cidr = c, what = "broker routing within the region" } },
  )

  # egress: package repositories and AWS APIs over HTTPS, and each path of the matrix outwards
  egress = {
    cassandra_https     = { sg = "cassandra", port = 443, cidr = "0.0.0.0/0", what = "packages, SSM, AWS APIs (through NAT)" }
    kafka_https         = { sg = "kafka", port = 443, cidr = "0.0.0.0/0", what = "packages, SSM, AWS APIs (through NAT)" }
    es_https            = { sg = "elasticsearch", port = 443, cidr = "0.0.0.0/0", what = "packages, SSM, AWS APIs (through NAT)" }
    nodes_https         = { sg = "eks_nodes", port = 443, cidr = "0.0.0.0/0", what = "images, EKS API, AWS APIs" }
    loadtest_https      = { sg = "loadtest", port = 443, cidr = "0.0.0.0/0", what = "packages, the order API" }
    cassandra_internode = { sg = "cassandra", port = 7000, cidr = "0.0.0.0/0", what = "internode TLS to every DC (peer addresses are private, routes exist only to peered VPCs)" }
    public_lb_nodeport  = { sg = "public_lb", port = var.broker_node_port, cidr = var.plan.vpc_cidr, what = "to the broker NodePort" }
    internal_nodeport   = { sg = "internal_lb", port = var.broker_node_port, cidr = var.plan.vpc_cidr, what = "to the broker NodePort" }
    nodes_cql           = { sg = "eks_nodes", port = 9042, cidr = var.plan.vpc_cidr, what = "brokers to Cassandra" }
    nodes_kafka         = { sg = "eks_nodes", port = 9092, cidr = var.plan.vpc_cidr, what = "brokers to Kafka" }
    nodes_es            = { sg = "eks_nodes", port = 9200, cidr = var.plan.vpc_cidr, what = "brokers to Elasticsearch" }
    nodes_routing       = { sg = "eks_nodes", port = 8080, cidr = "0.0.0.0/0", what = "brokers to the internal load balancers of other regions (over peering)" }
    nodes_scrape_7070   = { sg = "eks_nodes", port = 7070, cidr = var.plan.vpc_cidr, what = "Prometheus scrapes" }
    nodes_scrape_7071   = { sg = "eks_nodes", port = 7071, cidr = var.plan.vpc_cidr, what = "Prometheus scrapes" }
    loadtest_cql        = { sg = "loadtest", port = 9042, cidr = var.plan.vpc_cidr, what = "floor writes" }
    loadtest_kafka      = { sg = "loadtest", port = 9092, cidr = var.plan.vpc_cidr, what = "ticks" }
    loadtest_routing    = { sg = "loadtest", port = 8080, cidr = var.plan.vpc_cidr, what = "broker API through the internal load balancer" }
    kafka_controller    = { sg = "kafka", port = 9093, cidr = var.plan.vpc_cidr, what = "KRaft controller" }
  }
}

resource "aws_vpc_security_group_ingress_rule" "group" {
  for_each                     = local.group_ingress
  region                       = var.region
  security_group_id            = local.groups[each.value.sg]
  referenced_security_group_id = local.groups[each.value.from]
  ip_protocol                  = "tcp"
  from_port                    = each.value.port
  to_port                      = each.value.port
  description                  = each.value.what
  tags                         = local.tags
}

resource "aws_vpc_security_group_ingress_rule" "cidr" {
  for_each          = local.cidr_ingress
  region            = var.region
  security_group_id = local.groups[each.value.sg]
  cidr_ipv4         = each.value.cidr
  ip_protocol       = "tcp"
  from_port         = each.value.port
  to_port           = each.value.port
  description       = each.value.what
  tags              = local.tags
}

resource "aws_vpc_security_group_ingress_rule" "order_api" {
  region            = var.region
  security_group_id = aws_security_group.public_lb.id
  cidr_ipv4         = "0.0.0.0/0"
  ip_protocol       = "tcp"
  from_port         = 443
  to_port           = 443
  description       = "the order API, HTTPS only"
  tags              = local.tags
}

resource "aws_vpc_security_group_egress_rule" "this" {
  for_each          = local.egress
  region            = var.region
  security_group_id = local.groups[each.value.sg]
  cidr_ipv4         = each.value.cidr
  ip_protocol       = "tcp"
  from_port         = each.value.port
  to_port           = each.value.port
  description       = each.value.what
  tags              = local.tags
}

################################################################################
# TLS: a key and certificate per server (Cassandra nodes, Kafka, Elasticsearch), signed by the data CA
################################################################################

locals {
  # every TLS server of the region: its fixed private IP (the certificate's SAN), its name, its key's SSM parameter
  tls_servers = merge(
    { for n, node in local.cassandra_nodes : "cassandra-${n}" => {
      ip = node.ip, name = "cassandra-${n}.${var.plan.datacenter}", param = "cassandra/${n}/keystore.pem"
    } },
    { kafka = { ip = var.plan.kafka_ip, name = "kafka.${var.plan.datacenter}", param = "kafka/keystore.pem" } },
    { elasticsearch = { ip = var.plan.elasticsearch_ip, name = "elasticsearch.${var.plan.datacenter}", param = "elasticsearch/keystore.pem" } },
  )
}

# The keys are in the Terraform state: keep the state in an encrypted backend (modules/state-backend).
resource "tls_private_key" "server" {
  for_each    = local.tls_servers
  algorithm   = "ECDSA"
  ecdsa_curve = "P256"
}

resource "tls_cert_request" "server" {
  for_each        = local.tls_servers
  private_key_pem = tls_private_key.server[each.key].private_key_pem
  ip_addresses    = [each.value.ip]
  subject {
    common_name  = each.value.name
    organization = var.name
  }
}

# Renewal: a `terraform apply` in the last 30 days of the certificate's year issues a new one and
# rewrites its SSM parameter; each server's daily tls-refresh timer picks it up without a restart
# (Cassandra: nodetool reloadssl; Kafka: a dynamic keystore update; Elasticsearch watches its files).
resource "tls_locally_signed_cert" "server" {
  for_each              = local.tls_servers
  cert_request_pem      = tls_cert_request.server[each.key].cert_request_pem
  ca_private_key_pem    = var.data_ca.private_key_pem
  ca_cert_pem           = var.data_ca.cert_pem
  validity_period_hours = 24 * 365
  early_renewal_hours   = 24 * 30
  allowed_uses          = ["digital_signature", "key_encipherment", "server_auth", "client_auth"]
}

# Key + certificate chain in one PEM, fetched by the server's instance role at boot and by its daily
# refresh: Cassandra's PEMBasedSslContextFactory reads it as it is; the Kafka host makes a PKCS12
# keystore of it; the Elasticsearch host splits it into node.key and node.crt.
resource "aws_ssm_parameter" "server_keystore" {
  for_each = local.tls_servers
  region   = var.region
  name     = "/${var.name}/${var.region}/${each.value.param}"
  type     = "SecureString"
  key_id   = aws_kms_key.this.arn
  tier     = "Standard" # an ECDSA key and two certificates stay well under 4 KB
  value = join("", [tls_private_key.server[each.key].private_key_pem_pkcs8,
  tls_locally_signed_cert.server[each.key].cert_pem, var.data_ca.cert_pem])
  tags = local.tags
}

################################################################################
# Data volumes: separate from the instances, so a replaced instance finds its data again
################################################################################

locals {
  # one gp3 volume per server, in the server's availability zone
  data_volumes = merge(
    { for n, node in local.cassandra_nodes : "cassandra-${n}" => { role = "cassandra", az = node.az, gb = var.volume_gb.cassandra } },
    { kafka = { role = "kafka", az = 0, gb = var.volume_gb.kafka } },
    { elasticsearch = { role = "elasticsearch", az = 1, gb = var.volume_gb.elasticsearch } },
  )
  data_instances = merge(
    { for n, instance in aws_instance.cassandra : "cassandra-${n}" => instance.id },
    { kafka = aws_instance.kafka.id, elasticsearch = aws_instance.elasticsearch.id },
  )
}

resource "aws_ebs_volume" "data" {
  #checkov:skip=CKV2_AWS_9:backed up by Data Lifecycle Manager (aws_dlm_lifecycle_policy.daily snapshots every volume tagged Backup=daily), not by AWS Backup
  for_each          = local.data_volumes
  region            = var.region
  availability_zone = local.azs[each.value.az]
  type              = "gp3"
  size              = each.value.gb
  encrypted         = true
  kms_key_id        = aws_kms_key.this.arn
  tags              = merge(local.tags, { Name = "${local.prefix}-${each.key}-data", Role = each.value.role, Backup = "daily" })

  lifecycle {
    # false, the default, written out: a measurement deployment is destroyed after its runs, data
    # included (its DLM snapshots stay). For a long-lived deployment set it to true (a literal:
    # Terraform takes no variable here), so that no plan can delete a node's data.
    prevent_destroy = false
  }
}

# Attached after the instance has booted; the instance's data-volume.sh waits for the device.
# Replacing an instance detaches the volume from the stopped old one and attaches it to the new one.
resource "aws_volume_attachment" "data" {
  for_each                       = local.data_volumes
  region                         = var.region
  device_name                    = "/dev/sdf"
  volume_id                      = aws_ebs_volume.data[each.key].id
  instance_id                    = local.data_instances[each.key]
  stop_instance_before_detaching = true # a clean shutdown (Cassandra drains, Kafka closes its logs) before the volume goes
}

# Daily snapshots of every volume tagged Backup=daily, 14 kept. DLM targets a volume carrying any of
# the target tags, in the whole account and region: two deployments in one region would snapshot each
# other's volumes too. Snapshots outlive `terraform destroy` (and the policy's retention): delete them
# by hand once they are not wanted (docs/guide/aws-runbooks.md, destroy).
data "aws_iam_policy_document" "dlm_assume" {
  statement {
    actions = ["sts:AssumeRole"]
    principals {
      type        = "Service"
      identifiers = ["dlm.amazonaws.com"]
    }
  }
}

resource "aws_iam_role" "dlm" {
  name               = "${local.prefix}-dlm"
  assume_role_policy = data.aws_iam_policy_document.dlm_assume.json
  tags               = local.tags
}

resource "aws_iam_role_policy_attachment" "dlm" {
  role       = aws_iam_role.dlm.name
  policy_arn = "arn:aws:iam::aws:policy/service-role/AWSDataLifecycleManagerServiceRole"
}

resource "aws_dlm_lifecycle_policy" "daily" {
  region             = var.region
  description        = "${local.prefix} data volumes daily snapshots 14 kept" # DLM allows letters, digits, spaces, - and _ only
  execution_role_arn = aws_iam_role.dlm.arn
  state              = "ENABLED"

  policy_details {
    policy_type    = "EBS_SNAPSHOT_MANAGEMENT"
    resource_types = ["VOLUME"]
    target_tags    = { Backup = "daily" }

    schedule {
      name      = "daily"
      copy_tags = true

      create_rule {
        interval      = 24
        interval_unit = "HOURS"
        times         = ["03:00"] # UTC
      }

      retain_rule {
        count = 14
      }
    }
  }

  tags       = local.tags
  depends_on = [aws_iam_role_policy_attachment.dlm]
}

################################################################################
# Cassandra: one DC of the cluster, node n in availability zone n-1 at a fixed address
################################################################################

# The cluster-wide logins (roles admin and broker), generated once by the root and kept in this
# region's SSM: the node that creates the roles reads them there, never through user data.
resource "aws_ssm_parameter" "cassandra_password" {
  for_each = toset(["admin", "broker"])
  region   = var.region
  name     = "/${var.name}/${var.region}/cassandra/${each.key}.password"
  type     = "SecureString"
  key_id   = aws_kms_key.this.arn
  value    = each.key == "admin" ? var.cassandra_roles.admin_password : var.cassandra_roles.broker_password
  tags     = local.tags
}

resource "aws_instance" "cassandra" {
  for_each                    = local.cassandra_nodes
  region                      = var.region
  ami                         = data.aws_ssm_parameter.al2023.value
  instance_type               = var.plan.cassandra.instance_type
  subnet_id                   = aws_subnet.data[tostring(each.value.az)].id
  private_ip                  = each.value.ip
  vpc_security_group_ids      = [aws_security_group.cassandra.id]
  iam_instance_profile        = aws_iam_instance_profile.server["cassandra"].name
  ebs_optimized               = true
  monitoring                  = true
  user_data_replace_on_change = false
  user_data = templatefile("${path.module}/templates/cassandra.cloud-init.yaml.tftpl", {
    cluster_name            = var.name
    version                 = var.versions.cassandra
    datacenter              = var.plan.datacenter
    rack                    = local.azs[each.value.az]
    address                 = each.value.ip
    seeds                   = join(",", var.seeds)
    rf                      = var.plan.cassandra.replication_factor
    keystore_param          = aws_ssm_parameter.server_keystore["cassandra-${each.key}"].name
    ca_cert_pem             = var.data_ca.cert_pem
    region                  = var.region
    bootstrap_after         = each.value.bootstrap_after
    repair_day              = each.value.repair_day
    creates_roles           = var.creates_roles && each.key == "1"
    system_auth_replication = var.system_auth_replication
    password_params         = { for role, param in aws_ssm_parameter.cassandra_password : role => param.name }
    data_volume_script = templatefile("${path.module}/templates/data-volume.sh.tftpl", {
      mount     = "/var/lib/cassandra"
      volume_id = aws_ebs_volume.data["cassandra-${each.key}"].id
    })
  })

  metadata_options {
    http_tokens   = "required"
    http_endpoint = "enabled"
  }

  root_block_device {
    volume_type = "gp3"
    volume_size = var.volume_gb.root
    encrypted   = true
    kms_key_id  = aws_kms_key.this.arn
  }

  tags = merge(local.tags, { Name = "${local.prefix}-cassandra-${each.key}", Role = "cassandra", Scrape = "true" })

  lifecycle {
    # a new AMI must not replace a data node; roll nodes one at a time instead (README); a new data
    # volume (its id is in the user data) needs a new instance
    ignore_changes       = [ami, user_data]
    replace_triggered_by = [aws_ebs_volume.data["cassandra-${each.key}"].id]
  }
}

################################################################################
# Kafka on EC2 (KRaft, combined broker + controller): the region's ticks and order events
################################################################################

# One random password per principal, kept in SSM (KMS-encrypted); the Kafka host reads them at boot,
# never through user data. Operators and the load harness read the feed's the same way (outputs).
resource "random_password" "kafka" {
  for_each = local.kafka_principals
  length   = 32
  special  = false
}

resource "aws_ssm_parameter" "kafka_password" {
  for_each = local.kafka_principals
  region   = var.region
  name     = "/${var.name}/${var.region}/kafka/${each.key}.password"
  type     = "SecureString"
  key_id   = aws_kms_key.this.arn
  value    = random_password.kafka[each.key].result
  tags     = local.tags
}

resource "aws_instance" "kafka" {
  region                 = var.region
  ami                    = data.aws_ssm_parameter.al2023.value
  instance_type          = var.instance_types.kafka
  subnet_id              = aws_subnet.data["0"].id
  private_ip             = var.plan.kafka_ip
  vpc_security_group_ids = [aws_security_group.kafka.id]
  iam_instance_profile   = aws_iam_instance_profile.server["kafka"].name
  ebs_optimized          = true
  monitoring             = true
  user_data = templatefile("${path.module}/templates/kafka.cloud-init.yaml.tftpl", {
    version         = var.versions.kafka
    address         = var.plan.kafka_ip
    region          = var.region
    password_params = { for p in local.kafka_principals : p => aws_ssm_parameter.kafka_password[p].name }
    keystore_param  = aws_ssm_parameter.server_keystore["kafka"].name
    ca_cert_pem     = var.data_ca.cert_pem
    acls            = local.kafka_acls
    data_volume_script = templatefile("${path.module}/templates/data-volume.sh.tftpl", {
      mount     = "/var/lib/kafka"
      volume_id = aws_ebs_volume.data["kafka"].id
    })
  })

  metadata_options {
    http_tokens   = "required"
    http_endpoint = "enabled"
  }

  root_block_device {
    volume_type = "gp3"
    volume_size = var.volume_gb.root
    encrypted   = true
    kms_key_id  = aws_kms_key.this.arn
  }

  tags = merge(local.tags, { Name = "${local.prefix}-kafka", Role = "kafka", Scrape = "true" })

  lifecycle {
    ignore_changes       = [ami, user_data]
    replace_triggered_by = [aws_ebs_volume.data["kafka"].id]
  }
}

################################################################################
# Elasticsearch 8 on EC2 (the official Java client refuses Amazon OpenSearch)
################################################################################

# elastic (the superuser: the host sets it as bootstrap.password before the first start, then
# creates the broker user with it) and broker (the brokers' login: role broker, indices orders*).
resource "random_password" "elasticsearch" {
  for_each = toset(["elastic", "broker"])
  length   = 32
  special  = false
}

resource "aws_ssm_parameter" "elasticsearch_password" {
  for_each = toset(["elastic", "broker"])
  region   = var.region
  name     = "/${var.name}/${var.region}/elasticsearch/${each.key}.password"
  type     = "SecureString"
  key_id   = aws_kms_key.this.arn
  value    = random_password.elasticsearch[each.key].result
  tags     = local.tags
}

resource "aws_instance" "elasticsearch" {
  region                 = var.region
  ami                    = data.aws_ssm_parameter.al2023.value
  instance_type          = var.instance_types.elasticsearch
  subnet_id              = aws_subnet.data["1"].id
  private_ip             = var.plan.elasticsearch_ip
  vpc_security_group_ids = [aws_security_group.elasticsearch.id]
  iam_instance_profile   = aws_iam_instance_profile.server["elasticsearch"].name
  ebs_optimized          = true
  monitoring             = true
  user_data = templatefile("${path.module}/templates/elasticsearch.cloud-init.yaml.tftpl", {
    version         = var.versions.elasticsearch
    address         = var.plan.elasticsearch_ip
    cluster_name    = "${var.name}-${var.region}"
    region          = var.region
    keystore_param  = aws_ssm_parameter.server_keystore["elasticsearch"].name
    ca_cert_pem     = var.data_ca.cert_pem
    password_params = { for user, param in aws_ssm_parameter.elasticsearch_password : user => param.name }
    data_volume_script = templatefile("${path.module}/templates/data-volume.sh.tftpl", {
      mount     = "/var/lib/elasticsearch"
      volume_id = aws_ebs_volume.data["elasticsearch"].id
    })
  })

  metadata_options {
    http_tokens   = "required"
    http_endpoint = "enabled"
  }

  root_block_device {
    volume_type = "gp3"
    volume_size = var.volume_gb.root
    encrypted   = true
    kms_key_id  = aws_kms_key.this.arn
  }

  tags = merge(local.tags, { Name = "${local.prefix}-elasticsearch", Role = "elasticsearch", Scrape = "true" })

  lifecycle {
    ignore_changes       = [ami, user_data]
    replace_triggered_by = [aws_ebs_volume.data["elasticsearch"].id]
  }
}

################################################################################
# EKS: the brokers (kubectl apply -k k8s/overlays/<region>) and the region's Prometheus
################################################################################

data "aws_iam_policy_document" "eks_assume" {
  statement {
    actions = ["sts:AssumeRole", "sts:TagSession"]
    principals {
      type        = "Service"
      identifiers = ["eks.amazonaws.com"]
    }
  }
}

resource "aws_iam_role" "eks_cluster" {
  name               = "${local.prefix}-eks-cluster"
  assume_role_policy = data.aws_iam_policy_document.eks_assume.json
  tags               = local.tags
}

resource "aws_iam_role_policy_attachment" "eks_cluster" {
  role       = aws_iam_role.eks_cluster.name
  policy_arn = "arn:aws:iam::aws:policy/AmazonEKSClusterPolicy"
}

resource "aws_cloudwatch_log_group" "eks" {
  region            = var.region
  name              = "/aws/eks/${local.prefix}/cluster"
  retention_in_days = 365
  kms_key_id        = aws_kms_key.this.arn
  tags              = local.tags
}

resource "aws_eks_cluster" "this" {
  #checkov:skip=CKV_AWS_339:the version is var.versions.kubernetes (default 1.36), which checkov does not resolve here; its validation admits only versions in standard support (1.35, 1.36), and upgrade_policy STANDARD keeps the cluster out of extended support
  region                    = var.region
  name                      = local.prefix
  version                   = var.versions.kubernetes
  role_arn                  = aws_iam_role.eks_cluster.arn
  enabled_cluster_log_types = ["api", "audit", "authenticator", "controllerManager", "scheduler"]

  # At the end of its version's standard support EKS upgrades a STANDARD cluster instead of moving it
  # to extended support (+$0.50 per hour per cluster): a forgotten cluster costs nothing extra.
  upgrade_policy {
    support_type = "STANDARD"
  }

  access_config {
    authentication_mode = "API"
  }

  vpc_config {
    subnet_ids              = [for s in aws_subnet.app : s.id]
    endpoint_private_access = true
    endpoint_public_access  = length(var.eks_public_access_cidrs) > 0
    public_access_cidrs     = length(var.eks_public_access_cidrs) > 0 ? var.eks_public_access_cidrs : null
  }

  encryption_config {
    resources = ["secrets"]
    provider {
      key_arn = aws_kms_key.this.arn
    }
  }

  tags       = local.tags
  depends_on = [aws_iam_role_policy_attachment.eks_cluster, aws_cloudwatch_log_group.eks]
}

resource "aws_eks_access_entry" "admin" {
  for_each      = toset(var.eks_admin_principal_arns)
  region        = var.region
  cluster_name  = aws_eks_cluster.this.name
  principal_arn = each.value
  tags          = local.tags
}

resource "aws_eks_access_policy_association" "admin" {
  for_each      = toset(var.eks_admin_principal_arns)
  region        = var.region
  cluster_name  = aws_eks_cluster.this.name
  principal_arn = each.value
  policy_arn    = "arn:aws:eks::aws:cluster-access-policy/AmazonEKSClusterAdminPolicy"
  access_scope {
    type = "cluster"
  }
  depends_on = [aws_eks_access_entry.admin]
}

resource "aws_eks_addon" "this" {
  for_each     = toset(["vpc-cni", "coredns", "kube-proxy", "eks-pod-identity-agent"])
  region       = var.region
  cluster_name = aws_eks_cluster.this.name
  addon_name   = each.value
  # EKS installs vpc-cni, coredns and kube-proxy itself; take them over as managed add-ons
  resolve_conflicts_on_create = "OVERWRITE"
  # the VPC CNI enforces the overlays' NetworkPolicies only when asked to (its network policy agent)
  configuration_values = each.value == "vpc-cni" ? jsonencode({ enableNetworkPolicy = "true" }) : null
  tags                 = local.tags
  depends_on           = [aws_eks_node_group.this]
}

resource "aws_iam_role" "eks_node" {
  name               = "${local.prefix}-eks-node"
  assume_role_policy = data.aws_iam_policy_document.ec2_assume.json
  tags               = local.tags
}

resource "aws_iam_role_policy_attachment" "eks_node" {
  for_each   = toset(["AmazonEKSWorkerNodePolicy", "AmazonEKS_CNI_Policy", "AmazonEC2ContainerRegistryReadOnly", "AmazonSSMManagedInstanceCore"])
  role       = aws_iam_role.eks_node.name
  policy_arn = "arn:aws:iam::aws:policy/${each.value}"
}

resource "aws_launch_template" "eks_node" {
  region                 = var.region
  name_prefix            = "${local.prefix}-eks-node-"
  vpc_security_group_ids = [aws_eks_cluster.this.vpc_config[0].cluster_security_group_id, aws_security_group.eks_nodes.id]

  metadata_options {
    http_tokens                 = "required"
    http_endpoint               = "enabled"
    http_put_response_hop_limit = 1 # pods get AWS credentials from EKS Pod Identity, never from the node's IMDS
  }

  block_device_mappings {
    device_name = "/dev/xvda"
    ebs {
      volume_type = "gp3"
      volume_size = var.volume_gb.root
      encrypted   = true
      kms_key_id  = aws_kms_key.this.arn
    }
  }

  tag_specifications {
    resource_type = "instance"
    tags          = merge(local.tags, { Name = "${local.prefix}-eks-node" })
  }
  tags = local.tags
}

resource "aws_eks_node_group" "this" {
  region          = var.region
  cluster_name    = aws_eks_cluster.this.name
  node_group_name = "brokers"
  node_role_arn   = aws_iam_role.eks_node.arn
  subnet_ids      = [for s in aws_subnet.app : s.id]
  instance_types  = [var.plan.eks.instance_type] # sized by the plan from the manifests' requests

  launch_template {
    id      = aws_launch_template.eks_node.id
    version = aws_launch_template.eks_node.latest_version
  }

  scaling_config {
    desired_size = var.plan.eks.desired_size
    min_size     = var.plan.eks.min_size
    max_size     = var.plan.eks.max_size
  }

  update_config {
    max_unavailable = 1
  }

  labels     = { "broker.region" = var.region }
  tags       = local.tags
  depends_on = [aws_iam_role_policy_attachment.eks_node]
}

# Prometheus runs in the cluster (namespace monitoring, service account prometheus); EKS Pod
# Identity gives it ec2:DescribeInstances for ec2_sd_configs over the servers tagged Scrape=true.
data "aws_iam_policy_document" "pod_identity_assume" {
  statement {
    actions = ["sts:AssumeRole", "sts:TagSession"]
    principals {
      type        = "Service"
      identifiers = ["pods.eks.amazonaws.com"]
    }
  }
}

resource "aws_iam_role" "prometheus" {
  name               = "${local.prefix}-prometheus"
  assume_role_policy = data.aws_iam_policy_document.pod_identity_assume.json
  tags               = local.tags
}

data "aws_iam_policy_document" "prometheus" {
  statement {
    actions   = ["ec2:DescribeInstances", "ec2:DescribeAvailabilityZones"]
    resources = ["*"] # Describe* actions support no resource-level permissions
  }
}

resource "aws_iam_role_policy" "prometheus" {
  name   = "ec2-service-discovery"
  role   = aws_iam_role.prometheus.id
  policy = data.aws_iam_policy_document.prometheus.json
}

resource "aws_eks_pod_identity_association" "prometheus" {
  region          = var.region
  cluster_name    = aws_eks_cluster.this.name
  namespace       = "monitoring"
  service_account = "prometheus"
  role_arn        = aws_iam_role.prometheus.arn
  tags            = local.tags
}

################################################################################
# Load balancers: the public order API (HTTPS) and internal broker-to-broker routing
################################################################################

resource "aws_lb" "public" {
  #checkov:skip=CKV_AWS_150:deletion protection is var.deletion_protection (default false: a measurement deployment is destroyed after its runs); set it for a long-lived one
  #checkov:skip=CKV_AWS_91:access logs need a per-region S3 bucket with its own policy; enable with the terraform-aws-modules s3 module when the deployment outlives a measurement run
  #checkov:skip=CKV2_AWS_76:a WAF in front of the order API is a per-organisation choice (rules, cost); not part of the reference deployment
  #checkov:skip=CKV2_AWS_28:same as CKV2_AWS_76
  region                     = var.region
  name                       = "${var.name}-${var.region}-pub" # by region name, never by position in the regions file: at most 32 characters
  load_balancer_type         = "application"
  internal                   = false
  subnets                    = [for s in aws_subnet.public : s.id]
  security_groups            = [aws_security_group.public_lb.id]
  drop_invalid_header_fields = true
  enable_deletion_protection = var.deletion_protection
  tags                       = local.tags

  lifecycle {
    precondition {
      condition     = length("${var.name}-${var.region}-pub") <= 32 && length("${var.name}-${var.region}-api") <= 32 && length("${var.name}-${var.region}-rt") <= 32
      error_message = "Load balancer and target group names (<name>-<region>-pub/-api/-rt) must be at most 32 characters: shorten var.name."
    }
  }
}

resource "aws_lb_target_group" "public" {
  region      = var.region
  name        = "${var.name}-${var.region}-api"
  port        = var.broker_node_port
  protocol    = "HTTP"
  target_type = "instance"
  vpc_id      = aws_vpc.this.id

  health_check {
    path    = "/actuator/health/readiness"
    matcher = "200"
  }
  tags = local.tags
}

resource "aws_lb_listener" "https" {
  region            = var.region
  load_balancer_arn = aws_lb.public.arn
  port              = 443
  protocol          = "HTTPS"
  ssl_policy        = "ELBSecurityPolicy-TLS13-1-2-2021-06"
  certificate_arn   = aws_acm_certificate_validation.api.certificate_arn

  default_action {
    type             = "forward"
    target_group_arn = aws_lb_target_group.public.arn
  }
  tags = local.tags
}

resource "aws_lb" "internal" {
  #checkov:skip=CKV_AWS_150:see aws_lb.public
  #checkov:skip=CKV_AWS_91:see aws_lb.public
  region                           = var.region
  name                             = "${var.name}-${var.region}-rt"
  load_balancer_type               = "network"
  internal                         = true
  subnets                          = [for s in aws_subnet.app : s.id]
  security_groups                  = [aws_security_group.internal_lb.id]
  enable_cross_zone_load_balancing = true
  enable_deletion_protection       = var.deletion_protection
  tags                             = local.tags
}

resource "aws_lb_target_group" "internal" {
  region      = var.region
  name        = "${var.name}-${var.region}-rt"
  port        = var.broker_node_port
  protocol    = "TCP"
  target_type = "instance"
  vpc_id      = aws_vpc.this.id

  health_check {
    protocol = "HTTP"
    path     = "/actuator/health/readiness"
  }
  tags = local.tags
}

resource "aws_lb_listener" "routing" {
  #checkov:skip=CKV2_AWS_74:plain TCP inside peered VPCs; inter-region VPC peering traffic is encrypted by AWS, and every broker-to-broker call is signed by the calling region's Ed25519 key
  region            = var.region
  load_balancer_arn = aws_lb.internal.arn
  port              = 8080
  protocol          = "TCP"

  default_action {
    type             = "forward"
    target_group_arn = aws_lb_target_group.internal.arn
  }
  tags = local.tags
}

# the managed node group's autoscaling group registers its nodes with both target groups
resource "aws_autoscaling_attachment" "brokers" {
  #checkov:skip=CKV2_AWS_15:the autoscaling group belongs to the EKS managed node group, which sets its health checks itself; the target groups check /actuator/health/readiness
  for_each               = { public = aws_lb_target_group.public.arn, internal = aws_lb_target_group.internal.arn }
  region                 = var.region
  autoscaling_group_name = aws_eks_node_group.this.resources[0].autoscaling_groups[0].name
  lb_target_group_arn    = each.value
}

################################################################################
# DNS: the regional name, the latency-routed order API, and their certificate
################################################################################

locals {
  regional_name = "${var.region}.${var.dns.api_name}"
}

resource "aws_acm_certificate" "api" {
  region                    = var.region
  domain_name               = var.dns.api_name
  subject_alternative_names = [local.regional_name]
  validation_method         = "DNS"
  tags                      = local.tags

  lifecycle {
    create_before_destroy = true
  }
}

resource "aws_route53_record" "validation" {
  for_each = { for o in aws_acm_certificate.api.domain_validation_options : o.domain_name => o }

  zone_id         = var.dns.zone_id
  name            = each.value.resource_record_name
  type            = each.value.resource_record_type
  records         = [each.value.resource_record_value]
  ttl             = 300
  allow_overwrite = true # every region validates the shared api name with the same record
}

resource "aws_acm_certificate_validation" "api" {
  region                  = var.region
  certificate_arn         = aws_acm_certificate.api.arn
  validation_record_fqdns = [for r in aws_route53_record.validation : r.fqdn]
}

resource "aws_route53_record" "regional" {
  zone_id = var.dns.zone_id
  name    = local.regional_name
  type    = "A"

  alias {
    name                   = aws_lb.public.dns_name
    zone_id                = aws_lb.public.zone_id
    evaluate_target_health = true
  }
}

resource "aws_route53_record" "latency" {
  zone_id        = var.dns.zone_id
  name           = var.dns.api_name
  type           = "A"
  set_identifier = var.region

  latency_routing_policy {
    region = var.region
  }

  alias {
    name                   = aws_lb.public.dns_name
    zone_id                = aws_lb.public.zone_id
    evaluate_target_health = true
  }
}
