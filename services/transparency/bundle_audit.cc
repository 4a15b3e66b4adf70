#include "services/transparency/bundle_audit.h"

#include "services/games/official_result.h"

#include "services/common/resource_names.h"

#include <google/protobuf/util/json_util.h>

#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/core/status_macros.h"
#include "engine/merkle/merkle.h"
#include "services/games/game_events.h"
#include "services/games/game_loader.h"
#include "services/store/event_hash.h"
#include "services/store/memory_event_store.h"
#include "services/transparency/checkpoint.h"
#include "services/transparency/ruling_audit.h"
#include "services/transparency/transparency_log.h"

namespace arbiter::transparency {
namespace {

AuditFinding Holds(const std::string& check, const std::string& detail) {
  return {check, true, detail};
}
AuditFinding Fails(const std::string& check, const std::string& detail) {
  return {check, false, detail};
}

// Checks the chain; on success returns "" and fills nothing else.
std::string ChainProblem(const std::string& game_id, const v1::AuditBundle& bundle) {
  std::string prev = store::GenesisHash();
  for (int i = 0; i < bundle.events_size(); ++i) {
    const v1::AuditEvent& e = bundle.events(i);
    const int64_t number = i + 1;
    if (e.sequence() != number) {
      return absl::StrCat("event ", number, " is missing: events[", i, "] has sequence ",
                          e.sequence());
    }
    if (e.prev_hash() != prev) {
      return absl::StrCat("event ", number, " (\"", e.event_id(),
                          "\") does not point at the hash of the event before it");
    }
    if (store::EventHash(e.prev_hash(), e.sequence(), game_id, e.event_id(), e.type(),
                         e.payload()) != e.hash()) {
      return absl::StrCat("event ", number, " (\"", e.event_id(),
                          "\") does not match its hash: its contents were changed");
    }
    prev = e.hash();
  }
  return "";
}

// The creation request of the game whose event 1 is `created`, as the
// server stored it.
store::CreateGameRequest CreationOf(const std::string& game_id, const v1::GameCreated& created) {
  store::CreateGameRequest request;
  request.request_id = "audit";
  request.game.game_id = game_id;
  request.game.game = created.header().game();
  request.game.ruleset_id = created.header().ruleset_id();
  request.game.ruleset_hash = created.header().ruleset_hash();
  if (created.seed_commitment().empty()) {
    request.game.seed = created.header().seed();
  } else {
    request.game.seed_commitment = created.seed_commitment();
  }
  for (const auto& player : created.header().players()) request.game.players.push_back(player.id());
  request.game.created_by = "audit";
  request.game.league_id = created.league();
  request.game.tournament_id = created.tournament();
  return request;
}

// Stores the bundle's events as a game in `memory`: created with the first
// batch, then appended, batches ending after each event that ends the game,
// as the store requires. A failing finding if they cannot be stored.
std::optional<AuditFinding> StoreBundle(const std::string& game_id,
                                        const v1::AuditBundle& bundle,
                                        store::MemoryEventStore& memory) {
  v1::GameCreated created;
  if (bundle.events(0).type() != games::kTypeGameCreated ||
      !created.ParseFromString(bundle.events(0).payload())) {
    return Fails("replay", "event 1 is not the game's creation");
  }
  std::vector<std::vector<store::NewEvent>> batches(1);
  for (const v1::AuditEvent& e : bundle.events()) {
    batches.back().push_back({e.event_id(), e.type(), e.payload(), ""});
    if (e.type() == store::kGameFinishedType || e.type() == store::kGameVoidedType) {
      batches.emplace_back();
    }
  }
  if (batches.back().empty()) batches.pop_back();
  store::CreateGameRequest request = CreationOf(game_id, created);
  request.events = batches.front();
  if (request.events.back().type == store::kGameFinishedType) {
    request.game.status = store::GameStatus::kFinished;
  }
  absl::StatusOr<store::GameRecord> record = memory.CreateGame(request);
  if (!record.ok()) {
    return Fails("replay", absl::StrCat("the log cannot be stored as a game: ",
                                        record.status().message()));
  }
  for (std::size_t b = 1; b < batches.size(); ++b) {
    store::AppendRequest append;
    append.game_id = game_id;
    append.expected_sequence = record->last_sequence;
    append.request_id = absl::StrCat("audit-", b);
    append.recorded_by = "audit";
    append.events = batches[b];
    absl::StatusOr<store::AppendResult> appended = memory.Append(append);
    if (!appended.ok()) {
      return Fails("replay", absl::StrCat("the log cannot be stored as a game: ",
                                          appended.status().message()));
    }
    record->last_sequence = appended->last_sequence;
  }
  return std::nullopt;
}

// A failing finding if a verdict the game records is not `adjudication`'s.
// A later "game_finished" that carries a correction is an arbiter's ruling
// recorded in place of the game's result (docs/tournaments.md): it is not a
// verdict of the replay, so it is not compared with it, but it must follow
// the result it corrects. A "game_finished" reported from a score sheet
// ends a game the replay has not finished, after the actions it counts.
std::optional<AuditFinding> RecordedVerdictProblem(const games::LoadedGame& game,
                                                   const v1::Adjudication& adjudication) {
  bool result_seen = false;
  for (const v1::Event& event : game.events) {
    if (!event.has_game_finished()) continue;
    const v1::GameFinished& finished = event.game_finished();
    if (!finished.correction().empty()) {
      if (result_seen) continue;
      return Fails("replay", absl::StrCat("event ", event.event(), " records a corrected result, "
                                          "but no result of the game precedes it"));
    }
    if (finished.has_reported()) {
      // A score sheet ends a game the referee had not finished: the replay
      // must still be going, after exactly the actions the report counted.
      if (result_seen || adjudication.verdict() != v1::VERDICT_UNFINISHED ||
          finished.actions() != adjudication.actions()) {
        return Fails("replay", absl::StrCat("event ", event.event(),
                                            " records a result reported from a score sheet after ",
                                            finished.actions(), " actions, but the replay gives ",
                                            v1::Verdict_Name(adjudication.verdict()), " after ",
                                            adjudication.actions(),
                                            result_seen ? " and the game already had a result"
                                                        : ""));
      }
      result_seen = true;
      continue;
    }
    result_seen = true;
    if (finished.verdict() != adjudication.verdict() ||
        finished.actions() != adjudication.actions()) {
      return Fails("replay", absl::StrCat("event ", event.event(), " records verdict ",
                                          v1::Verdict_Name(finished.verdict()), " after ",
                                          finished.actions(), " actions, but the replay gives ",
                                          v1::Verdict_Name(adjudication.verdict()), " after ",
                                          adjudication.actions()));
    }
  }
  return std::nullopt;
}

// What a ruling or a void recorded after the game's result, which makes the
// official result: "; the result was corrected at event 95 (dispute d1:
// ...)" or "; the game was voided at event 60: ...". Empty when nothing did.
std::string OfficialResultNote(const games::LoadedGame& game) {
  std::string note;
  for (const v1::Event& event : game.events) {
    if (event.has_game_finished() && event.game_finished().has_reported()) {
      note = absl::StrCat("; the result was reported from a score sheet at event ", event.event(),
                          " (", games::ReportedReason(event.game_finished().reported()),
                          "), not refereed");
    } else if (event.has_game_finished() && !event.game_finished().correction().empty()) {
      note = absl::StrCat("; the result was corrected at event ", event.event(), " (",
                          event.game_finished().correction(), ")");
    } else if (event.has_game_voided()) {
      absl::StrAppend(&note, "; the game was voided at event ", event.event(), ": ",
                      event.game_voided().reason());
    }
  }
  return note;
}

// The replay on an in-memory store holding the bundle's events, as the
// server's VerifyGame runs it; fills `adjudication` when it can judge.
AuditFinding Replay(const std::string& game_id, const v1::AuditBundle& bundle,
                    const engine::RulesetRegistry& registry, v1::Adjudication& adjudication) {
  store::MemoryEventStore memory;
  if (std::optional<AuditFinding> failed = StoreBundle(game_id, bundle, memory)) return *failed;
  const games::CancelCheck never = [] { return absl::OkStatus(); };
  absl::StatusOr<v1::VerifyGameResponse> verified =
      games::VerifyStoredGame(memory, memory, registry, game_id, never);
  if (!verified.ok()) return Fails("replay", std::string(verified.status().message()));
  if (!verified->intact()) {
    return Fails("replay", absl::StrCat("event ", verified->first_bad_event(), ": ",
                                        verified->problem()));
  }
  absl::StatusOr<games::LoadedGame> game = games::LoadGame(memory, game_id, never);
  if (!game.ok()) return Fails("replay", std::string(game.status().message()));
  if (!game->seed.has_value()) {
    return Holds("replay", absl::StrCat("the log decodes; its seed is still hidden, so it cannot "
                                        "be replayed",
                                        OfficialResultNote(*game)));
  }
  absl::StatusOr<replay::Referee> referee = games::Judge(*game, registry, 0, never);
  if (!referee.ok()) return Fails("replay", std::string(referee.status().message()));
  adjudication =
      games::ToAdjudication(game_id, *referee, static_cast<int64_t>(bundle.events_size()));
  adjudication.set_last_event_hash(bundle.events(bundle.events_size() - 1).hash());
  // A recorded verdict must be the one the replay reaches.
  if (std::optional<AuditFinding> differs = RecordedVerdictProblem(*game, adjudication)) {
    return *differs;
  }
  return Holds("replay", absl::StrCat(v1::Verdict_Name(adjudication.verdict()), " after ",
                                      adjudication.actions(), " actions",
                                      OfficialResultNote(*game)));
}

// The findings "signature" (the signed note opens with `verifier`) and, if
// it does, "checkpoint" (the bundle's copy of its fields agrees with it);
// the checkpoint, or why the note does not open.
absl::StatusOr<Checkpoint> CheckCheckpoint(const v1::AuditBundle& bundle,
                                           const NoteVerifier& verifier, AuditReport& report) {
  // The signed note is the authority; the bundle's copy of its fields must
  // agree with it.
  const v1::InclusionProof& proof = bundle.proof();
  absl::StatusOr<Checkpoint> checkpoint = OpenCheckpoint(verifier, proof.checkpoint().note());
  if (!checkpoint.ok()) {
    report.findings.push_back(Fails("signature", std::string(checkpoint.status().message())));
    return checkpoint;
  }
  report.findings.push_back(Holds(
      "signature", absl::StrCat("checkpoint of ", checkpoint->size, " leaves of log ",
                                checkpoint->origin, ", signed ",
                                absl::FormatTime("%Y-%m-%dT%H:%M:%SZ", checkpoint->time,
                                                 absl::UTCTimeZone()))));
  const v1::Checkpoint& copy = proof.checkpoint();
  if (copy.tree_size() != static_cast<int64_t>(checkpoint->size) ||
      copy.root_hash() != engine::merkle::ToBytes(checkpoint->root) ||
      copy.origin() != checkpoint->origin ||
      proof.tree_size() != static_cast<int64_t>(checkpoint->size)) {
    report.findings.push_back(Fails(
        "checkpoint", "the bundle's tree size, root or origin differ from the signed note's"));
  } else {
    report.findings.push_back(Holds("checkpoint", "the bundle's copy matches the signed note"));
  }
  return checkpoint;
}

// The finding "inclusion": the bundle's proof puts its last event in the
// signed tree of `checkpoint`.
AuditFinding CheckInclusion(const v1::AuditBundle& bundle,
                            const absl::StatusOr<Checkpoint>& checkpoint) {
  const v1::InclusionProof& proof = bundle.proof();
  const v1::AuditEvent& last = bundle.events(bundle.events_size() - 1);
  const std::string last_name = absl::StrCat(bundle.game(), "/events/", bundle.events_size());
  if (!checkpoint.ok()) return Fails("inclusion", "no signed checkpoint to prove against");
  if (proof.event() != last_name || proof.event_hash() != last.hash()) {
    return Fails("inclusion", absl::StrCat("the proof is of ", proof.event(), " with hash ",
                                           proof.event_hash(), ", not of the last event ",
                                           last_name, " with hash ", last.hash()));
  }
  const absl::Status status = VerifyProof(proof, *checkpoint);
  if (!status.ok()) return Fails("inclusion", std::string(status.message()));
  return Holds("inclusion", absl::StrCat(last_name, " is leaf ", proof.leaf_index(), " of the ",
                                         checkpoint->size, "-leaf tree"));
}

}  // namespace

absl::StatusOr<AuditReport> AuditBundle(const v1::AuditBundle& bundle,
                                        const NoteVerifier& verifier,
                                        const engine::RulesetRegistry& registry) {
  if (bundle.format() != kBundleFormat) {
    return absl::InvalidArgumentError(absl::StrCat("not an audit bundle: format is \"",
                                                   bundle.format(), "\", not \"", kBundleFormat,
                                                   "\""));
  }
  ARBITER_ASSIGN_OR_RETURN(const std::string game_id,
                           common::ParseName(common::IdKind::kGame, bundle.game(), "game"));
  if (bundle.events().empty()) return absl::InvalidArgumentError("the bundle has no events");
  AuditReport report;
  const absl::StatusOr<Checkpoint> checkpoint = CheckCheckpoint(bundle, verifier, report);
  const std::string chain_problem = ChainProblem(game_id, bundle);
  const v1::AuditEvent& last = bundle.events(bundle.events_size() - 1);
  if (chain_problem.empty()) {
    report.findings.push_back(Holds("chain", absl::StrCat(bundle.events_size(),
                                                          " events, last hash ", last.hash())));
  } else {
    report.findings.push_back(Fails("chain", chain_problem));
  }
  // Inclusion of the last event in the signed tree.
  report.findings.push_back(CheckInclusion(bundle, checkpoint));
  if (chain_problem.empty()) {
    report.findings.push_back(Replay(game_id, bundle, registry, report.adjudication));
  } else {
    report.findings.push_back(Fails("replay", "not replayed: the chain is broken"));
  }
  // The rulings the log cites, against the same signed tree.
  if (!chain_problem.empty()) {
    if (!CitedRulings(bundle.events()).empty()) {
      report.findings.push_back(Fails("rulings", "not checked: the chain is broken"));
    }
  } else if (std::optional<AuditFinding> rulings =
                 CheckRulings(bundle, checkpoint.ok() ? &*checkpoint : nullptr)) {
    report.findings.push_back(*rulings);
  }
  return report;
}

AuditFinding CompareWithEarlier(const v1::AuditBundle& earlier, const v1::AuditBundle& now,
                                const NoteVerifier& verifier,
                                const engine::RulesetRegistry& registry) {
  absl::StatusOr<AuditReport> before = AuditBundle(earlier, verifier, registry);
  if (!before.ok()) {
    return Fails("history", absl::StrCat("the export taken before is not a bundle: ",
                                         before.status().message()));
  }
  for (const AuditFinding& f : before->findings) {
    if (!f.holds) {
      return Fails("history", absl::StrCat("the export taken before does not hold (", f.check,
                                           ": ", f.detail, ")"));
    }
  }
  if (earlier.game() != now.game()) {
    return Fails("history", absl::StrCat("the export taken before is of ", earlier.game(),
                                         ", not of ", now.game()));
  }
  for (int i = 0; i < earlier.events_size(); ++i) {
    const v1::AuditEvent& was = earlier.events(i);
    if (i >= now.events_size()) {
      return Fails("history", absl::StrCat("event ", i + 1, " (\"", was.event_id(),
                                           "\") is missing: the export taken before had ",
                                           earlier.events_size(), " events, this one has ",
                                           now.events_size()));
    }
    const v1::AuditEvent& is = now.events(i);
    if (was.hash() != is.hash() || was.event_id() != is.event_id()) {
      return Fails("history", absl::StrCat("event ", i + 1, " differs from the export taken "
                                           "before: it was \"", was.event_id(), "\" with hash ",
                                           was.hash(), ", it is \"", is.event_id(),
                                           "\" with hash ", is.hash()));
    }
  }
  return Holds("history", absl::StrCat("the ", earlier.events_size(),
                                       " events of the export taken before are unchanged; ",
                                       now.events_size() - earlier.events_size(),
                                       " followed"));
}

std::string BundleToJson(const v1::AuditBundle& bundle) {
  google::protobuf::util::JsonPrintOptions options;
  options.add_whitespace = true;
  options.preserve_proto_field_names = true;
  std::string out;
  (void)google::protobuf::util::MessageToJsonString(bundle, &out, options);
  return out;
}

absl::StatusOr<v1::AuditBundle> BundleFromJson(const std::string& json) {
  v1::AuditBundle bundle;
  google::protobuf::util::JsonParseOptions options;
  options.ignore_unknown_fields = false;
  auto status = google::protobuf::util::JsonStringToMessage(json, &bundle, options);
  if (!status.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("not an audit bundle: ", std::string(status.message())));
  }
  return bundle;
}

}  // namespace arbiter::transparency
