// Authentication before a request is read: a grpc::AuthMetadataProcessor
// that checks the bearer token of every call from its initial metadata,
// before gRPC hands the message to a handler, so a caller without a valid
// token costs a hash and a map look-up (auth.h), never the parsing of its
// message. Calls it refuses end with UNAUTHENTICATED (or UNAVAILABLE when
// the token store cannot be reached) and reach no handler.
//
// gRPC runs processors only on secure credentials: TLS, or local
// credentials, which ArbiterServer uses for plaintext on a loopback address.
// Plaintext on other addresses (--insecure) authenticates in the handlers.
// The health and reflection services need no token.
// Thread-safe.
#ifndef ARBITER_SERVICES_SERVER_EARLY_AUTH_H_
#define ARBITER_SERVICES_SERVER_EARLY_AUTH_H_

#include <grpcpp/security/auth_metadata_processor.h>

#include "services/access/authenticator.h"
#include "services/access/permissions.h"

namespace arbiter::server {

class EarlyAuthProcessor final : public grpc::AuthMetadataProcessor {
 public:
  explicit EarlyAuthProcessor(access::Authenticator& auth) : auth_(auth) {}

  // Look-ups may wait for the token store.
  bool IsBlocking() const override { return true; }

  grpc::Status Process(const InputMetadata& auth_metadata, grpc::AuthContext* context,
                       OutputMetadata* consumed_auth_metadata,
                       OutputMetadata* response_metadata) override;

 private:
  access::Authenticator& auth_;
};

}  // namespace arbiter::server

#endif  // ARBITER_SERVICES_SERVER_EARLY_AUTH_H_
