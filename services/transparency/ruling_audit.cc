#include "services/transparency/ruling_audit.h"

#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "arbiter/v1/events/game_events.pb.h"
#include "arbiter/v1/events/tournament_events.pb.h"
#include "engine/merkle/merkle.h"
#include "services/common/resource_names.h"
#include "services/store/event_store.h"
#include "services/store/stream_store.h"
#include "services/transparency/transparency_log.h"

namespace arbiter::transparency {
namespace {

// The event types of a dispute's log (services/tournament/tournament_log.h).
constexpr char kDisputeOpened[] = "dispute_opened";
constexpr char kDisputeRuled[] = "dispute_ruled";

// The dispute id of a ruling's game write, "dispute {id}: {reason}"; empty
// if `text` is not one.
std::string DisputeOf(const std::string& text) {
  const std::string prefix = "dispute ";
  if (!absl::StartsWith(text, prefix)) return "";
  const std::size_t colon = text.find(": ", prefix.size());
  if (colon == std::string::npos) return "";
  const std::string id = text.substr(prefix.size(), colon - prefix.size());
  const std::string name = common::NameOf(common::IdKind::kDispute, id);
  if (!common::ParseName(common::IdKind::kDispute, name, "dispute").ok()) return "";
  return id;
}

std::string What(const CitedRuling& cited) {
  return absl::StrCat(cited.voided ? "the void" : "the correction", " at event ", cited.event);
}

// The stream's chain problem, or "".
std::string StreamChainProblem(const v1::AuditStream& stream) {
  if (stream.events().empty()) return "carries no events";
  std::vector<store::StreamEvent> events;
  for (const v1::AuditEvent& e : stream.events()) {
    store::StreamEvent event;
    event.stream_id = stream.stream();
    event.sequence = e.sequence();
    event.request_id = e.event_id();
    event.type = e.type();
    event.payload = e.payload();
    event.prev_hash = e.prev_hash();
    event.hash = e.hash();
    events.push_back(std::move(event));
  }
  store::StreamRecord record;
  record.stream_id = stream.stream();
  record.last_sequence = static_cast<int64_t>(events.size());
  record.last_hash = events.back().hash;
  const absl::Status status = store::VerifyStreamChain(record, events);
  return status.ok() ? "" : absl::StrCat("is broken: ", status.message());
}

// Whether the stream's proof puts its last event in `checkpoint`'s tree;
// the problem, or "".
std::string StreamInclusionProblem(const v1::AuditStream& stream, const Checkpoint* checkpoint) {
  if (checkpoint == nullptr) return "cannot be proved: no signed checkpoint";
  const v1::AuditEvent& last = stream.events(stream.events_size() - 1);
  const v1::InclusionProof& proof = stream.proof();
  const std::string last_name = absl::StrCat(stream.stream(), "/events/", last.sequence());
  if (proof.event() != last_name || proof.event_hash() != last.hash()) {
    return absl::StrCat("comes with a proof of ", proof.event(), ", not of its last event ",
                        last_name);
  }
  if (proof.tree_size() != static_cast<int64_t>(checkpoint->size)) {
    return absl::StrCat("is proved against a tree of ", proof.tree_size(),
                        " leaves, not the signed one of ", checkpoint->size);
  }
  const absl::Status status = VerifyProof(proof, *checkpoint);
  return status.ok() ? "" : absl::StrCat("is not in the signed tree: ", status.message());
}

std::string PlacesAndPoints(const std::vector<int64_t>& places,
                            const std::vector<int64_t>& points) {
  return absl::StrCat("places (", absl::StrJoin(places, ", "), ") and game points (",
                      absl::StrJoin(points, ", "), ")");
}

// Why `ruling` did not make the game write `cited` (the game event
// `event`), or "" if it did.
std::string RulingMismatch(const v1::Ruling& ruling, const CitedRuling& cited,
                           const v1::AuditEvent& event) {
  const v1::RulingKind kind = cited.voided ? v1::RULING_KIND_VOID : v1::RULING_KIND_CORRECTED;
  if (ruling.kind() != kind) {
    return absl::StrCat("whose ruling is ", v1::RulingKind_Name(ruling.kind()), ", not ",
                        v1::RulingKind_Name(kind));
  }
  const std::string reason = absl::StrCat("dispute ", cited.dispute_id, ": ", ruling.reason());
  if (cited.voided) {
    v1::GameVoided voided;
    (void)voided.ParseFromString(event.payload());
    return voided.reason() == reason ? "" : "whose ruling gives another reason";
  }
  v1::GameFinished finished;
  (void)finished.ParseFromString(event.payload());
  std::vector<int64_t> places;
  std::vector<int64_t> points;
  for (const v1::PlayerStanding& seat : finished.standings().players()) {
    places.push_back(seat.place());
    points.push_back(seat.score());
  }
  const std::vector<int64_t> ruled_places(ruling.corrected().places().begin(),
                                          ruling.corrected().places().end());
  const std::vector<int64_t> ruled_points(ruling.corrected().game_points().begin(),
                                          ruling.corrected().game_points().end());
  if (places != ruled_places || points != ruled_points) {
    return absl::StrCat("whose ruling gives ", PlacesAndPoints(ruled_places, ruled_points),
                        ", not the ", PlacesAndPoints(places, points), " the event records");
  }
  return finished.correction() == reason ? "" : "whose ruling gives another reason";
}

// The problem of one cited ruling, or "" with `ruled_by` set.
std::string CitedRulingProblem(const v1::AuditBundle& bundle, const CitedRuling& cited,
                               const Checkpoint* checkpoint, std::string& ruled_by) {
  const std::string what = What(cited);
  if (cited.dispute_id.empty()) return absl::StrCat(what, " names no dispute");
  const std::string stream_id = common::NameOf(common::IdKind::kDispute, cited.dispute_id);
  const v1::AuditStream* stream = nullptr;
  for (const v1::AuditStream& s : bundle.rulings()) {
    if (s.stream() == stream_id) stream = &s;
  }
  const std::string cites = absl::StrCat(what, " cites dispute ", cited.dispute_id);
  if (stream == nullptr) return absl::StrCat(cites, ", whose record this bundle does not carry");
  std::string problem = StreamChainProblem(*stream);
  if (problem.empty()) problem = StreamInclusionProblem(*stream, checkpoint);
  if (!problem.empty()) return absl::StrCat(cites, ", whose record ", problem);
  v1::DisputeOpened opened;
  if (stream->events(0).type() != kDisputeOpened ||
      !opened.ParseFromString(stream->events(0).payload())) {
    return absl::StrCat(cites, ", whose record does not open with the dispute");
  }
  if (opened.game() != bundle.game()) {
    return absl::StrCat(cites, ", which is about ", opened.game(), ", not ", bundle.game());
  }
  std::string mismatch = "which records no ruling";
  const v1::AuditEvent& event = bundle.events(static_cast<int>(cited.event - 1));
  for (const v1::AuditEvent& e : stream->events()) {
    v1::DisputeRuled ruled;
    if (e.type() != kDisputeRuled || !ruled.ParseFromString(e.payload())) continue;
    mismatch = RulingMismatch(ruled.ruling(), cited, event);
    if (mismatch.empty()) {
      ruled_by = ruled.ruling().ruled_by();
      return "";
    }
  }
  return absl::StrCat(cites, ", ", mismatch);
}

}  // namespace

std::vector<CitedRuling> CitedRulings(
    const google::protobuf::RepeatedPtrField<v1::AuditEvent>& events) {
  std::vector<CitedRuling> cited;
  for (const v1::AuditEvent& e : events) {
    if (e.type() == store::kGameFinishedType) {
      v1::GameFinished finished;
      if (!finished.ParseFromString(e.payload()) || finished.correction().empty()) continue;
      cited.push_back({e.sequence(), false, DisputeOf(finished.correction())});
    } else if (e.type() == store::kGameVoidedType) {
      v1::GameVoided voided;
      if (!voided.ParseFromString(e.payload())) continue;
      const std::string dispute_id = DisputeOf(voided.reason());
      if (!dispute_id.empty()) cited.push_back({e.sequence(), true, dispute_id});
    }
  }
  return cited;
}

absl::Status VerifyProof(const v1::InclusionProof& proof, const Checkpoint& checkpoint) {
  absl::StatusOr<engine::merkle::Hash> leaf = EventLeafHash(proof.event_hash());
  if (!leaf.ok()) return leaf.status();
  std::vector<engine::merkle::Hash> hashes;
  for (const std::string& h : proof.hashes()) {
    absl::StatusOr<engine::merkle::Hash> hash = engine::merkle::FromBytes(h);
    if (!hash.ok()) return hash.status();
    hashes.push_back(*hash);
  }
  if (proof.leaf_index() < 0) return absl::InvalidArgumentError("the leaf index is negative");
  return engine::merkle::VerifyInclusion(static_cast<uint64_t>(proof.leaf_index()),
                                         checkpoint.size, *leaf, hashes, checkpoint.root);
}

std::optional<AuditFinding> CheckRulings(const v1::AuditBundle& bundle,
                                         const Checkpoint* checkpoint) {
  const std::vector<CitedRuling> cited = CitedRulings(bundle.events());
  if (cited.empty()) return std::nullopt;
  std::vector<std::string> found;
  for (const CitedRuling& c : cited) {
    std::string ruled_by;
    const std::string problem = CitedRulingProblem(bundle, c, checkpoint, ruled_by);
    if (!problem.empty()) return AuditFinding{"rulings", false, problem};
    found.push_back(absl::StrCat(What(c), " was ruled in dispute ", c.dispute_id, " by ",
                                 ruled_by));
  }
  return AuditFinding{"rulings", true,
                      absl::StrCat(absl::StrJoin(found, "; "),
                                   " (the dispute's record is in the signed tree)")};
}

}  // namespace arbiter::transparency
