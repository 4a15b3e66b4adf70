// absl::Time and google.protobuf.Timestamp/Duration, one way to convert
// between them for the whole service. Pure functions; thread-safe.
#ifndef ARBITER_SERVICES_COMMON_PROTO_TIME_H_
#define ARBITER_SERVICES_COMMON_PROTO_TIME_H_

#include <google/protobuf/duration.pb.h>
#include <google/protobuf/timestamp.pb.h>
#include <google/protobuf/util/time_util.h>

#include "absl/time/time.h"

namespace arbiter::common {

// To the microsecond, as PostgreSQL keeps times.
inline google::protobuf::Timestamp TimestampOf(absl::Time time) {
  return google::protobuf::util::TimeUtil::MicrosecondsToTimestamp(absl::ToUnixMicros(time));
}

// To the nanosecond.
inline google::protobuf::Timestamp PreciseTimestampOf(absl::Time time) {
  return google::protobuf::util::TimeUtil::NanosecondsToTimestamp(absl::ToUnixNanos(time));
}

inline absl::Time TimeOf(const google::protobuf::Timestamp& timestamp) {
  return absl::FromUnixSeconds(timestamp.seconds()) + absl::Nanoseconds(timestamp.nanos());
}

inline absl::Duration DurationOf(const google::protobuf::Duration& duration) {
  return absl::Seconds(duration.seconds()) + absl::Nanoseconds(duration.nanos());
}

}  // namespace arbiter::common

#endif  // ARBITER_SERVICES_COMMON_PROTO_TIME_H_
