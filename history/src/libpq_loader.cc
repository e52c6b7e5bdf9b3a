// libpq, loaded when the first PostgreSQL history is opened instead of when
// etbench starts (base/lazy_library.h). Linking libpq pulls in 21 more shared
// libraries (Kerberos, LDAP, SASL, GnuTLS, OpenSSL, ...) whose loading,
// relocation and constructors cost every etbench process about 3 ms on a
// 2.3 GHz VM, most of the start-up of `etbench inspect` — a command that
// never opens a database. These definitions of the libpq functions the
// PostgreSQL backend calls (postgres_connection.cc) forward to the real
// ones in libpq.so.5 (Debian package libpq5).
//
// When libpq.so.5 cannot be loaded, connecting fails with its dlerror() as
// the connection's error message (and every other function reports
// failure), so opening a PostgreSQL history is a one-line error and no
// other command is affected. A function the backend starts to call must be
// added here (the link fails with "undefined reference to PQ..." until it is).
#include <libpq-fe.h>

#include <cstdlib>
#include <cstring>

#include "etbench/base/lazy_library.h"

namespace {

etbench::LazyLibrary& Libpq() {
  static etbench::LazyLibrary library("libpq.so.5", "libpq5");
  return library;
}

char* LoadError() { return const_cast<char*>(Libpq().error()); }

}  // namespace

// `real`: the library's own `name` (of the type of its declaration in the
// header), or nullptr when libpq cannot be loaded.
#define ETBENCH_LIBPQ(name) \
  static const auto real = Libpq().Function<decltype(&::name)>(#name)

extern "C" {

PGconn* PQconnectdb(const char* conninfo) {
  ETBENCH_LIBPQ(PQconnectdb);
  return real ? real(conninfo) : nullptr;
}

PGconn* PQconnectdbParams(const char* const* keywords, const char* const* values,
                          int expand_dbname) {
  ETBENCH_LIBPQ(PQconnectdbParams);
  return real ? real(keywords, values, expand_dbname) : nullptr;
}

PQconninfoOption* PQconninfoParse(const char* conninfo, char** errmsg) {
  ETBENCH_LIBPQ(PQconninfoParse);
  if (real) return real(conninfo, errmsg);
  if (errmsg != nullptr) *errmsg = strdup(LoadError());  // freed by PQfreemem (free)
  return nullptr;
}

void PQconninfoFree(PQconninfoOption* options) {
  ETBENCH_LIBPQ(PQconninfoFree);
  if (real) real(options);
}

void PQfinish(PGconn* conn) {
  ETBENCH_LIBPQ(PQfinish);
  if (real) real(conn);
}

ConnStatusType PQstatus(const PGconn* conn) {
  ETBENCH_LIBPQ(PQstatus);
  return real ? real(conn) : CONNECTION_BAD;
}

char* PQerrorMessage(const PGconn* conn) {
  ETBENCH_LIBPQ(PQerrorMessage);
  return real ? real(conn) : LoadError();
}

int PQsocket(const PGconn* conn) {
  ETBENCH_LIBPQ(PQsocket);
  return real ? real(conn) : -1;
}

PGresult* PQexecParams(PGconn* conn, const char* command, int n_params, const Oid* param_types,
                       const char* const* param_values, const int* param_lengths,
                       const int* param_formats, int result_format) {
  ETBENCH_LIBPQ(PQexecParams);
  return real ? real(conn, command, n_params, param_types, param_values, param_lengths,
                     param_formats, result_format)
              : nullptr;
}

int PQsendQueryParams(PGconn* conn, const char* command, int n_params, const Oid* param_types,
                      const char* const* param_values, const int* param_lengths,
                      const int* param_formats, int result_format) {
  ETBENCH_LIBPQ(PQsendQueryParams);
  return real ? real(conn, command, n_params, param_types, param_values, param_lengths,
                     param_formats, result_format)
              : 0;
}

PGresult* PQgetResult(PGconn* conn) {
  ETBENCH_LIBPQ(PQgetResult);
  return real ? real(conn) : nullptr;
}

int PQisBusy(PGconn* conn) {
  ETBENCH_LIBPQ(PQisBusy);
  return real ? real(conn) : 0;
}

int PQconsumeInput(PGconn* conn) {
  ETBENCH_LIBPQ(PQconsumeInput);
  return real ? real(conn) : 0;
}

ExecStatusType PQresultStatus(const PGresult* res) {
  ETBENCH_LIBPQ(PQresultStatus);
  return real ? real(res) : PGRES_FATAL_ERROR;
}

char* PQresultErrorMessage(const PGresult* res) {
  ETBENCH_LIBPQ(PQresultErrorMessage);
  return real ? real(res) : LoadError();
}

int PQntuples(const PGresult* res) {
  ETBENCH_LIBPQ(PQntuples);
  return real ? real(res) : 0;
}

int PQnfields(const PGresult* res) {
  ETBENCH_LIBPQ(PQnfields);
  return real ? real(res) : 0;
}

char* PQgetvalue(const PGresult* res, int row, int column) {
  ETBENCH_LIBPQ(PQgetvalue);
  static char empty[] = "";
  return real ? real(res, row, column) : empty;
}

int PQgetlength(const PGresult* res, int row, int column) {
  ETBENCH_LIBPQ(PQgetlength);
  return real ? real(res, row, column) : 0;
}

int PQgetisnull(const PGresult* res, int row, int column) {
  ETBENCH_LIBPQ(PQgetisnull);
  return real ? real(res, row, column) : 1;
}

void PQclear(PGresult* res) {
  ETBENCH_LIBPQ(PQclear);
  if (real) real(res);
}

void PQfreemem(void* ptr) {
  ETBENCH_LIBPQ(PQfreemem);
  if (real) {
    real(ptr);
  } else {
    std::free(ptr);  // what PQconninfoParse above allocated
  }
}

}  // extern "C"
