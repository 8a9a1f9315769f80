################################################################################
# Peering connection
################################################################################

output "id" {
  description = "The VPC peering connection's id."
  value       = aws_vpc_peering_connection.this.id
}

output "status" {
  description = "Its status as the accepter sees it (active once accepted)."
  value       = try(aws_vpc_peering_connection_accepter.this.accept_status, null)
}
