################################################################################
# Regions model -> plan (pure logic, tested offline with terraform test)
################################################################################

module "plan" {
  source = "../../modules/regions-plan"

  regions_yaml       = file(var.regions_file)
  instance_types     = var.instance_types
  single_nat_gateway = var.single_nat_gateway
  images             = local.image_refs # rendered into the overlays' kustomize images
}

data "aws_caller_identity" "this" {}

locals {
  # The region whose first Cassandra node creates the cluster's roles: the first of the regions file
  # (by name; the plan's map is keyed by name and sorted, not in file order).
  first_region = yamldecode(file(var.regions_file)).regions[0].name
}

################################################################################
# The data CA: every Cassandra node's, Kafka broker's and Elasticsearch node's certificate is signed by it
################################################################################

resource "tls_private_key" "data_ca" {
  algorithm   = "ECDSA"
  ecdsa_curve = "P256"
}

# Ten years; an apply in its last year issues a new CA. A new CA is a runbook step, not an apply
# (docs/guide/aws-runbooks.md, "Rotating certificates and passwords"): the servers have the CA in their user data (ignored after creation) and
# the brokers in their Secret, so every server certificate, every host's trust and every client's
# change together.
resource "tls_self_signed_cert" "data_ca" {
  private_key_pem       = tls_private_key.data_ca.private_key_pem
  is_ca_certificate     = true
  validity_period_hours = 24 * 365 * 10
  early_renewal_hours   = 24 * 365
  allowed_uses          = ["cert_signing", "crl_signing"]
  subject {
    common_name  = "${var.name} data CA"
    organization = var.name
  }
}

################################################################################
# Cluster-wide Cassandra roles: generated once, kept by every region in its own SSM
################################################################################

resource "random_password" "cassandra" {
  for_each = toset(["admin", "broker"])
  length   = 32
  special  = false
}

################################################################################
# One region module per region of the file
################################################################################

module "region" {
  source   = "../../modules/region"
  for_each = module.plan.regions

  region               = each.key
  name                 = var.name
  plan                 = each.value
  seeds                = module.plan.seeds
  cross_region_ingress = module.plan.cross_region_ingress[each.key]
  instance_types       = var.instance_types
  single_nat_gateway   = var.single_nat_gateway
  # the port the overlays' broker Service declares (the plan's output kubernetes): one value for both trees
  broker_node_port = module.plan.kubernetes[each.key].broker_node_port
  data_ca = {
    cert_pem        = tls_self_signed_cert.data_ca.cert_pem
    private_key_pem = tls_private_key.data_ca.private_key_pem
  }
  cassandra_roles = {
    admin_password  = random_password.cassandra["admin"].result
    broker_password = random_password.cassandra["broker"].result
  }
  creates_roles           = each.key == local.first_region
  system_auth_replication = module.plan.keyspace_replication
  dns = {
    zone_id  = var.dns_zone_id
    api_name = var.api_name
  }
  eks_admin_principal_arns = var.eks_admin_principal_arns
  eks_public_access_cidrs  = var.eks_public_access_cidrs
  tags                     = var.tags
}

################################################################################
# Between regions: a full mesh of VPC peering connections
################################################################################

module "peering" {
  source   = "../../modules/peering"
  for_each = module.plan.peering_pairs

  requester = {
    region          = each.value.requester
    vpc_id          = module.region[each.value.requester].vpc_id
    vpc_cidr        = module.region[each.value.requester].vpc_cidr
    route_table_ids = module.region[each.value.requester].private_route_table_ids
  }
  accepter = {
    region          = each.value.accepter
    vpc_id          = module.region[each.value.accepter].vpc_id
    vpc_cidr        = module.region[each.value.accepter].vpc_cidr
    route_table_ids = module.region[each.value.accepter].private_route_table_ids
  }
  tags = var.tags
}

################################################################################
# Peer names: one private zone for every VPC, broker.<region>.<zone> -> the region's internal NLB
################################################################################

# Brokers call their peers at http://broker.<region>.<zone>:8080 (the plan's peer_dns_name); every
# region's VPC resolves the zone itself, so a name answers even while the home region is cut off.
resource "aws_route53_zone" "internal" {
  #checkov:skip=CKV2_AWS_38:DNSSEC signing applies to public hosted zones; Route 53 does not sign private zones
  #checkov:skip=CKV2_AWS_39:queries of a private zone are logged by Route 53 Resolver query logging per VPC, not by a zone query log; not part of the reference deployment
  name    = module.plan.internal_zone
  comment = "${var.name}: broker-to-broker names, private to the deployment's VPCs"

  dynamic "vpc" {
    for_each = module.plan.regions
    content {
      vpc_id     = module.region[vpc.key].vpc_id
      vpc_region = vpc.key
    }
  }

  tags = var.tags
}

resource "aws_route53_record" "peer" {
  for_each = module.plan.regions
  zone_id  = aws_route53_zone.internal.zone_id
  name     = each.value.peer_dns_name
  type     = "A"

  alias {
    name                   = module.region[each.key].internal_lb.dns_name
    zone_id                = module.region[each.key].internal_lb.zone_id
    evaluate_target_health = false # one record per name, nothing to fail over to: the caller handles an unreachable peer
  }
}

################################################################################
# Broker keys and secrets the brokers share (output kubernetes_secrets)
################################################################################

locals {
  # a PEM's armour lines and line breaks: what is left is the base64 of its DER body (output kubernetes_secrets)
  pem_armour = "/-----[A-Z ]+-----|\\s/"
}

# Each region signs its calls to other regions with its Ed25519 key; every region knows every public key.
resource "tls_private_key" "peer" {
  for_each  = module.plan.regions
  algorithm = "ED25519"
}

# Customers' bearer tokens are good in every region: one HMAC key for the deployment.
resource "random_bytes" "token_key" {
  length = 32
}

resource "random_password" "operator" {
  for_each = module.plan.regions
  length   = 32
  special  = false
}

################################################################################
# Images: ECR repositories in the home region, replicated to every other region
################################################################################

locals {
  images     = { broker_service = "broker-service", ticker_feed = "ticker-feed" }
  image_refs = var.image_digests == null ? {} : { for key, image in local.images : key => "${var.image_registry}/${image}@${var.image_digests[key]}" }

  # image_registry is <host>/<namespace>: the repositories are <namespace>/<image>
  registry_parts   = split("/", var.image_registry)
  ecr_namespace    = join("/", slice(local.registry_parts, 1, length(local.registry_parts)))
  ecr_repositories = { for key, image in local.images : key => trimprefix("${local.ecr_namespace}/${image}", "/") }

  replica_regions = toset([for r in keys(module.plan.regions) : r if r != var.home_region])
  ecr_regions     = setunion([var.home_region], local.replica_regions)
  replicas = { for pair in setproduct(local.replica_regions, keys(local.images)) :
  "${pair[0]}/${pair[1]}" => { region = pair[0], image = pair[1] } }
}

data "aws_iam_policy_document" "ecr_kms" {
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
}

# One key per region holding repositories: a KMS key is regional, and ECR gives a replica it creates
# itself AES256 encryption; the replicas are therefore created here, with their region's key, before
# anything is pushed.
resource "aws_kms_key" "ecr" {
  for_each            = local.ecr_regions
  region              = each.key
  description         = "${var.name}: container images in ECR"
  enable_key_rotation = true
  policy              = data.aws_iam_policy_document.ecr_kms.json
  tags                = var.tags
}

# Push here, by digest (tags are immutable): docker push <image_registry>/broker-service:<version>
resource "aws_ecr_repository" "image" {
  for_each             = local.images
  region               = var.home_region
  name                 = local.ecr_repositories[each.key]
  image_tag_mutability = "IMMUTABLE"

  image_scanning_configuration {
    scan_on_push = true
  }

  encryption_configuration {
    encryption_type = "KMS"
    kms_key         = aws_kms_key.ecr[var.home_region].arn
  }

  tags = var.tags
}

# The replicas ECR fills: same names, in every other region, so each region's nodes pull locally.
resource "aws_ecr_repository" "replica" {
  for_each             = local.replicas
  region               = each.value.region
  name                 = local.ecr_repositories[each.value.image]
  image_tag_mutability = "IMMUTABLE"

  image_scanning_configuration {
    scan_on_push = true
  }

  encryption_configuration {
    encryption_type = "KMS"
    kms_key         = aws_kms_key.ecr[each.value.region].arn
  }

  tags = var.tags
}

# The home region's registry replication configuration: one per account and region, so this replaces
# any other replication rule of that registry.
resource "aws_ecr_replication_configuration" "images" {
  count  = length(local.replica_regions) > 0 ? 1 : 0
  region = var.home_region

  replication_configuration {
    rule {
      dynamic "destination" {
        for_each = local.replica_regions
        content {
          region      = destination.value
          registry_id = data.aws_caller_identity.this.account_id
        }
      }

      dynamic "repository_filter" {
        for_each = aws_ecr_repository.image
        content {
          filter      = repository_filter.value.name
          filter_type = "PREFIX_MATCH"
        }
      }
    }
  }

  depends_on = [aws_ecr_repository.replica]
}

check "images_are_given_by_digest" {
  assert {
    condition     = var.image_digests != null
    error_message = "image_digests is not set: the overlays name no image in the registry (fine only for the first apply, which creates the repositories)."
  }
}

check "image_registry_is_the_home_region_ecr" {
  assert {
    condition     = var.image_registry == trimsuffix("${data.aws_caller_identity.this.account_id}.dkr.ecr.${var.home_region}.amazonaws.com/${local.ecr_namespace}", "/")
    error_message = "image_registry is not this account's ECR in home_region: the repositories created here (output ecr_repository_urls) are not the ones the images are pulled from."
  }
}
