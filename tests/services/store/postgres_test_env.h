// A private PostgreSQL cluster for the tests of one test program.
//
// The cluster is started (with the same launcher the server uses) the first
// time a test asks for a database, in a temporary directory, and is stopped
// and deleted when the program exits. Each FreshDatabase() is a new, migrated
// database, so tests do not see each other's data: a copy of a template that
// is migrated once per program. Programs registered with ONE_PROCESS
// (cmake/ArbiterHelpers.cmake) run all their cases on one cluster.
#ifndef ARBITER_TESTS_SERVICES_STORE_POSTGRES_TEST_ENV_H_
#define ARBITER_TESTS_SERVICES_STORE_POSTGRES_TEST_ENV_H_

#include <limits>
#include <memory>
#include <string>

#include "services/store/embedded_postgres.h"
#include "services/store/postgres_event_store.h"

namespace arbiter::store::testing {

// The cluster (started on first use; the test fails if it cannot start).
EmbeddedPostgres& Cluster();

// Creates a new database, applies the built-in migrations up to version
// `up_to` (all by default) and returns its superuser connection string.
std::string FreshDatabase(int up_to = std::numeric_limits<int>::max());

// A PostgresEventStore on a fresh database, working as arbiter_service. It
// keeps JSON copies unless told not to, so that the behavioural tests see
// every field of an event come back.
std::unique_ptr<PostgresEventStore> FreshPostgresStore(std::string* conninfo = nullptr,
                                                       bool keep_json_copies = true);

}  // namespace arbiter::store::testing

#endif  // ARBITER_TESTS_SERVICES_STORE_POSTGRES_TEST_ENV_H_
