#include "services/store/stream_store.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "engine/core/sha256.h"
#include "services/store/event_hash.h"
#include "services/store/event_store.h"
#include "services/store/internal/store_rules.h"

namespace arbiter::store {

absl::Status ValidateStreamAppend(const StreamAppendRequest& request) {
  if (absl::Status s = internal::CheckId("stream_id", request.stream_id); !s.ok()) return s;
  if (absl::Status s = internal::CheckId("request_id", request.request_id); !s.ok()) return s;
  if (absl::Status s = internal::CheckId("recorded_by", request.recorded_by); !s.ok()) return s;
  if (absl::Status s = internal::CheckId("type", request.type); !s.ok()) return s;
  if (request.expected_sequence < 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "expected_sequence is ", request.expected_sequence, "; it cannot be negative"));
  }
  if (request.expected_sequence == 0) {
    if (absl::Status s = internal::CheckId("kind", request.kind); !s.ok()) return s;
  }
  if (static_cast<int64_t>(request.payload.size()) > kMaxStreamPayloadBytes) {
    return absl::InvalidArgumentError(absl::StrCat("payload is ", request.payload.size(),
                                                   " bytes; the limit is ",
                                                   kMaxStreamPayloadBytes));
  }
  return absl::OkStatus();
}

std::string StreamAppendDigest(const StreamAppendRequest& request) {
  // Length-prefixed, so that no two different requests collide.
  std::string out;
  for (const std::string* field :
       {&request.stream_id, &request.kind, &request.recorded_by, &request.type, &request.payload}) {
    absl::StrAppend(&out, field->size(), ":", *field);
  }
  absl::StrAppend(&out, request.expected_sequence);
  return engine::Sha256Hex(out);
}

std::string StreamEventHash(const std::string& prev_hash, int64_t sequence,
                            const std::string& stream_id, const std::string& request_id,
                            const std::string& type, const std::string& payload) {
  return EventHash(prev_hash, sequence, stream_id, request_id, type, payload);
}

absl::Status VerifyStreamChain(const StreamRecord& stream, const std::vector<StreamEvent>& events) {
  std::string prev = GenesisHash();
  for (std::size_t i = 0; i < events.size(); ++i) {
    const StreamEvent& e = events[i];
    const int64_t expected = static_cast<int64_t>(i) + 1;
    auto bad = [&](const std::string& what) {
      return absl::DataLossError(absl::StrCat(stream.stream_id, " event ", expected, " (request \"",
                                              e.request_id, "\"): ", what));
    };
    if (e.sequence != expected) return bad(absl::StrCat("has sequence ", e.sequence));
    if (e.prev_hash != prev) return bad("prev_hash does not match the previous event's hash");
    if (StreamEventHash(e.prev_hash, e.sequence, e.stream_id, e.request_id, e.type, e.payload) !=
        e.hash) {
      return bad("hash does not match its content");
    }
    prev = e.hash;
  }
  if (stream.last_sequence != static_cast<int64_t>(events.size()) ||
      (!events.empty() && stream.last_hash != prev)) {
    return absl::DataLossError(absl::StrCat(stream.stream_id,
                                            ": the recorded head does not match its last event"));
  }
  return absl::OkStatus();
}

absl::StatusOr<StreamEvent> MemoryStreamStore::Append(const StreamAppendRequest& request) {
  if (absl::Status s = ValidateStreamAppend(request); !s.ok()) return s;
  const std::string digest = StreamAppendDigest(request);
  absl::MutexLock lock(&mu_);
  if (auto it = requests_.find(request.request_id); it != requests_.end()) {
    if (it->second.digest != digest) {
      return absl::InvalidArgumentError(absl::StrCat(
          "request_id \"", request.request_id, "\" was already used for a different request"));
    }
    return streams_.at(it->second.stream_id).events[it->second.sequence - 1];
  }
  auto it = streams_.find(request.stream_id);
  if (request.expected_sequence == 0) {
    if (it != streams_.end()) {
      return absl::AlreadyExistsError(absl::StrCat(request.stream_id, " already exists"));
    }
    Stream stream;
    stream.record.stream_id = request.stream_id;
    stream.record.kind = request.kind;
    stream.record.created_by = request.recorded_by;
    stream.record.created_at = absl::Now();
    it = streams_.emplace(request.stream_id, std::move(stream)).first;
  } else {
    if (it == streams_.end()) {
      return absl::NotFoundError(absl::StrCat(request.stream_id, " does not exist"));
    }
    if (it->second.record.last_sequence != request.expected_sequence) {
      return absl::AbortedError(absl::StrCat("expected event ", request.expected_sequence, ", ",
                                             request.stream_id, " is at event ",
                                             it->second.record.last_sequence));
    }
  }
  Stream& stream = it->second;
  StreamEvent event;
  event.stream_id = request.stream_id;
  event.sequence = stream.record.last_sequence + 1;
  event.request_id = request.request_id;
  event.type = request.type;
  event.payload = request.payload;
  event.recorded_by = request.recorded_by;
  event.recorded_at = absl::Now();
  event.prev_hash = stream.events.empty() ? GenesisHash() : stream.record.last_hash;
  event.hash = StreamEventHash(event.prev_hash, event.sequence, event.stream_id, event.request_id,
                               event.type, event.payload);
  stream.record.last_sequence = event.sequence;
  stream.record.last_hash = event.hash;
  stream.events.push_back(event);
  requests_[request.request_id] = Written{request.stream_id, event.sequence, digest};
  return event;
}

absl::StatusOr<StreamRecord> MemoryStreamStore::GetStream(const std::string& stream_id) {
  absl::MutexLock lock(&mu_);
  auto it = streams_.find(stream_id);
  if (it == streams_.end()) return absl::NotFoundError(absl::StrCat(stream_id, " does not exist"));
  return it->second.record;
}

absl::StatusOr<std::vector<StreamRecord>> MemoryStreamStore::ListStreams(const std::string& kind,
                                                                         const std::string& after_id,
                                                                         int limit) {
  if (limit < 1 || limit > 1000) {
    return absl::InvalidArgumentError(absl::StrCat("limit is ", limit, "; it must be 1-1000"));
  }
  absl::MutexLock lock(&mu_);
  std::vector<StreamRecord> out;
  for (auto it = streams_.upper_bound(after_id);
       it != streams_.end() && static_cast<int>(out.size()) < limit; ++it) {
    if (it->second.record.kind == kind) out.push_back(it->second.record);
  }
  return out;
}

absl::StatusOr<std::vector<StreamEvent>> MemoryStreamStore::ReadStream(const std::string& stream_id,
                                                                       int64_t after_sequence,
                                                                       int limit) {
  if (absl::Status s = internal::ValidateLimit(limit); !s.ok()) return s;
  absl::MutexLock lock(&mu_);
  auto it = streams_.find(stream_id);
  if (it == streams_.end()) return absl::NotFoundError(absl::StrCat(stream_id, " does not exist"));
  std::vector<StreamEvent> out;
  const std::vector<StreamEvent>& events = it->second.events;
  for (int64_t s = std::max<int64_t>(after_sequence, 0);
       s < static_cast<int64_t>(events.size()) && static_cast<int>(out.size()) < limit; ++s) {
    out.push_back(events[s]);
  }
  return out;
}

}  // namespace arbiter::store
