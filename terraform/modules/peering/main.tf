################################################################################
# Peering connection (inter-region: requested in one region, accepted in the other)
################################################################################

resource "aws_vpc_peering_connection" "this" {
  region      = var.requester.region
  vpc_id      = var.requester.vpc_id
  peer_vpc_id = var.accepter.vpc_id
  peer_region = var.accepter.region
  auto_accept = false # inter-region: only the accepter side can accept
  tags        = merge(var.tags, { Name = "${var.requester.region}--${var.accepter.region}", Side = "requester" })
}

resource "aws_vpc_peering_connection_accepter" "this" {
  region                    = var.accepter.region
  vpc_peering_connection_id = aws_vpc_peering_connection.this.id
  auto_accept               = true
  tags                      = merge(var.tags, { Name = "${var.requester.region}--${var.accepter.region}", Side = "accepter" })
}

################################################################################
# Routes: every private route table of each side reaches the other VPC through the peering
################################################################################

resource "aws_route" "requester_to_accepter" {
  for_each                  = var.requester.route_table_ids
  region                    = var.requester.region
  route_table_id            = each.value
  destination_cidr_block    = var.accepter.vpc_cidr
  vpc_peering_connection_id = aws_vpc_peering_connection_accepter.this.id
}

resource "aws_route" "accepter_to_requester" {
  for_each                  = var.accepter.route_table_ids
  region                    = var.accepter.region
  route_table_id            = each.value
  destination_cidr_block    = var.requester.vpc_cidr
  vpc_peering_connection_id = aws_vpc_peering_connection_accepter.this.id
}
