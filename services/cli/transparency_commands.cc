// The `arbiter` commands of the transparency log (docs/transparency.md):
//   export GAME [-o FILE]                 a self-contained audit bundle
//   audit BUNDLE --public-key FILE        checks a bundle offline
//   checkpoint --watch STATE --public-key FILE
//                                         follows the log's checkpoints and
//                                         refuses one that rewrites history
//   checkpoint --publish                  signs a checkpoint now (admin)
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <set>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "engine/merkle/merkle.h"
#include "services/cli/cli_common.h"
#include "services/cli/client_common.h"
#include "services/cli/commands.h"
#include "services/transparency/bundle_audit.h"
#include "services/transparency/checkpoint.h"
#include "services/transparency/key_file.h"
#include "services/transparency/ruling_audit.h"

namespace arbiter::cli {
namespace {

constexpr int kExitDoesNotHold = 4;

struct ExportOpts {
  ClientOptions client;
  std::string game;
  std::string output;
  int64_t tree_size = 0;
};

struct AuditOpts {
  std::string bundle;
  std::string public_key;
  std::string previous;
};

struct CheckpointOpts {
  ClientOptions client;
  std::string watch;
  std::string public_key;
  bool publish = false;
};

int Fail(int code, const std::string& message) {
  std::cerr << "arbiter: " << message << "\n";
  return code;
}

absl::StatusOr<std::string> ReadText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::InvalidArgumentError(absl::StrCat("cannot read ", path));
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Writes through a temporary file and a rename, so a reader never sees half.
absl::Status WriteAtomically(const std::string& path, const std::string& content) {
  const std::string temp = path + ".tmp";
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    out << content;
    out.flush();
    if (!out) return absl::InternalError(absl::StrCat("cannot write ", temp));
  }
  std::error_code error;
  std::filesystem::rename(temp, path, error);
  if (error) return absl::InternalError(absl::StrCat("cannot write ", path, ": ", error.message()));
  return absl::OkStatus();
}

// Adds the record of every dispute whose ruling the bundle's log cites,
// proved against the same checkpoint as the game's last event.
int AddRulings(Client& client, v1::AuditBundle& bundle) {
  std::set<std::string> added;
  for (const transparency::CitedRuling& cited : transparency::CitedRulings(bundle.events())) {
    if (cited.dispute_id.empty() || !added.insert(cited.dispute_id).second) continue;
    v1::GetStreamEvidenceRequest request;
    request.set_stream(absl::StrCat("disputes/", cited.dispute_id));
    request.set_tree_size(bundle.proof().tree_size());
    v1::AuditStream record;
    grpc::Status status =
        client.transparency->GetStreamEvidence(NewContext(client).get(), request, &record);
    if (status.error_code() == grpc::StatusCode::NOT_FOUND) {
      // No ruling made it: the audit refuses the event, naming it.
      std::cerr << "note: event " << cited.event << " cites dispute " << cited.dispute_id
                << ", which does not exist; the bundle carries no record of it\n";
      continue;
    }
    if (!status.ok()) return ReportRpcError(status);
    *bundle.add_rulings() = std::move(record);
  }
  return kExitOk;
}

int RunExport(const ExportOpts& opts) {
  absl::StatusOr<Client> client = Connect(opts.client);
  if (!client.ok()) return Fail(kExitBadInput, std::string(client.status().message()));
  v1::AuditBundle bundle;
  bundle.set_format(transparency::kBundleFormat);
  bundle.set_game(GameNameArg(opts.game));
  v1::ListEventsRequest list;
  list.set_parent(bundle.game());
  list.set_page_size(1000);
  while (true) {
    v1::ListEventsResponse page;
    grpc::Status status = client->games->ListEvents(NewContext(*client).get(), list, &page);
    if (!status.ok()) return ReportRpcError(status);
    for (const v1::Event& event : page.events()) {
      if (event.payload().empty()) {
        return Fail(kExitBadInput,
                    absl::StrCat("event ", event.event(), " of ", bundle.game(),
                                 " comes without its stored bytes (they would show the seed to "
                                 "this token): export with a token that may see the seed"));
      }
      v1::AuditEvent* out = bundle.add_events();
      out->set_sequence(event.event());
      out->set_event_id(event.event_id());
      out->set_type(event.type());
      out->set_payload(event.payload());
      out->set_prev_hash(event.prev_hash());
      out->set_hash(event.hash());
    }
    if (page.next_page_token().empty()) break;
    list.set_page_token(page.next_page_token());
  }
  if (bundle.events().empty()) return Fail(kExitBadInput, bundle.game() + " has no events");
  v1::GetInclusionProofRequest request;
  request.set_name(absl::StrCat(bundle.game(), "/events/", bundle.events_size()));
  request.set_tree_size(opts.tree_size);
  grpc::Status status =
      client->transparency->GetInclusionProof(NewContext(*client).get(), request,
                                              bundle.mutable_proof());
  if (!status.ok()) return ReportRpcError(status);
  if (const int code = AddRulings(*client, bundle); code != kExitOk) return code;
  const std::string json = transparency::BundleToJson(bundle);
  if (opts.output.empty() || opts.output == "-") {
    std::cout << json;
  } else if (absl::Status s = WriteAtomically(opts.output, json); !s.ok()) {
    return Fail(kExitFailure, std::string(s.message()));
  } else {
    std::cerr << "wrote " << opts.output << ": " << bundle.events_size() << " events"
              << (bundle.rulings().empty()
                      ? ""
                      : absl::StrCat(" and the record of ", bundle.rulings_size(),
                                     bundle.rulings_size() == 1 ? " ruling" : " rulings"))
              << ", leaf "
              << bundle.proof().leaf_index() << " of a " << bundle.proof().tree_size()
              << "-leaf checkpoint\n";
  }
  return kExitOk;
}

int RunAudit(const AuditOpts& opts, const GlobalOptions& global) {
  absl::StatusOr<transparency::NoteVerifier> verifier =
      transparency::ReadVerifierKey(opts.public_key);
  if (!verifier.ok()) return Fail(kExitBadInput, std::string(verifier.status().message()));
  absl::StatusOr<std::string> text = ReadText(opts.bundle);
  if (!text.ok()) return Fail(kExitBadInput, std::string(text.status().message()));
  absl::StatusOr<v1::AuditBundle> bundle = transparency::BundleFromJson(*text);
  if (!bundle.ok()) {
    return Fail(kExitBadInput, absl::StrCat(opts.bundle, ": ", bundle.status().message()));
  }
  absl::StatusOr<engine::RulesetRegistry> registry = LoadRegistry(global);
  if (!registry.ok()) return Fail(kExitBadInput, std::string(registry.status().message()));
  absl::StatusOr<transparency::AuditReport> report =
      transparency::AuditBundle(*bundle, *verifier, *registry);
  if (!report.ok()) {
    return Fail(kExitBadInput, absl::StrCat(opts.bundle, ": ", report.status().message()));
  }
  if (!opts.previous.empty()) {
    absl::StatusOr<std::string> earlier_text = ReadText(opts.previous);
    if (!earlier_text.ok()) return Fail(kExitBadInput, std::string(earlier_text.status().message()));
    absl::StatusOr<v1::AuditBundle> earlier = transparency::BundleFromJson(*earlier_text);
    if (!earlier.ok()) {
      return Fail(kExitBadInput, absl::StrCat(opts.previous, ": ", earlier.status().message()));
    }
    report->findings.push_back(
        transparency::CompareWithEarlier(*earlier, *bundle, *verifier, *registry));
  }
  for (const transparency::AuditFinding& f : report->findings) {
    std::cout << f.check << ": " << (f.holds ? "holds" : "DOES NOT HOLD") << " - " << f.detail
              << "\n";
  }
  if (!report->holds()) {
    for (const transparency::AuditFinding& f : report->findings) {
      if (!f.holds) {
        std::cerr << "arbiter: audit of " << bundle->game() << " failed: " << f.check << ": "
                  << f.detail << "\n";
        break;
      }
    }
    return kExitDoesNotHold;
  }
  std::cout << "audit of " << bundle->game() << ": every check holds\n";
  return kExitOk;
}

int RunCheckpoint(const CheckpointOpts& opts) {
  absl::StatusOr<Client> client = Connect(opts.client);
  if (!client.ok()) return Fail(kExitBadInput, std::string(client.status().message()));
  if (opts.publish) {
    v1::Checkpoint published;
    grpc::Status status = client->transparency->PublishCheckpoint(
        NewContext(*client).get(), v1::PublishCheckpointRequest(), &published);
    if (!status.ok()) return ReportRpcError(status);
    std::cout << published.note();
    if (opts.watch.empty()) return kExitOk;
  }
  if (opts.watch.empty()) return Fail(kExitBadInput, "checkpoint needs --watch or --publish");
  if (opts.public_key.empty()) {
    return Fail(kExitBadInput, "checkpoint --watch needs --public-key (the log's verifier key)");
  }
  absl::StatusOr<transparency::NoteVerifier> verifier =
      transparency::ReadVerifierKey(opts.public_key);
  if (!verifier.ok()) return Fail(kExitBadInput, std::string(verifier.status().message()));

  v1::Checkpoint latest;
  grpc::Status status = client->transparency->GetCheckpoint(NewContext(*client).get(),
                                                            v1::GetCheckpointRequest(), &latest);
  if (!status.ok()) return ReportRpcError(status);
  absl::StatusOr<transparency::Checkpoint> fresh =
      transparency::OpenCheckpoint(*verifier, latest.note());
  if (!fresh.ok()) {
    return Fail(kExitDoesNotHold, absl::StrCat("refused the server's checkpoint: ",
                                               fresh.status().message()));
  }
  std::optional<transparency::Checkpoint> kept;
  if (std::filesystem::exists(opts.watch)) {
    absl::StatusOr<std::string> state = ReadText(opts.watch);
    if (!state.ok()) return Fail(kExitBadInput, std::string(state.status().message()));
    absl::StatusOr<transparency::Checkpoint> old = transparency::OpenCheckpoint(*verifier, *state);
    if (!old.ok()) {
      return Fail(kExitBadInput, absl::StrCat(opts.watch, " does not hold a checkpoint of this "
                                              "log: ", old.status().message()));
    }
    kept = *old;
  }
  if (kept.has_value()) {
    if (fresh->size < kept->size) {
      return Fail(kExitDoesNotHold,
                  absl::StrCat("refused: the log shrank from ", kept->size, " to ", fresh->size,
                               " leaves since the checkpoint in ", opts.watch,
                               ": its history was rewritten"));
    }
    v1::GetConsistencyProofRequest request;
    request.set_from_tree_size(static_cast<int64_t>(kept->size));
    request.set_to_tree_size(static_cast<int64_t>(fresh->size));
    v1::ConsistencyProof proof;
    status = client->transparency->GetConsistencyProof(NewContext(*client).get(), request, &proof);
    if (!status.ok()) return ReportRpcError(status);
    std::vector<engine::merkle::Hash> hashes;
    for (const std::string& h : proof.hashes()) {
      absl::StatusOr<engine::merkle::Hash> hash = engine::merkle::FromBytes(h);
      if (!hash.ok()) return Fail(kExitDoesNotHold, "refused: the consistency proof is malformed");
      hashes.push_back(*hash);
    }
    absl::Status consistent = engine::merkle::VerifyConsistency(kept->size, fresh->size,
                                                                kept->root, fresh->root, hashes);
    if (!consistent.ok()) {
      return Fail(kExitDoesNotHold,
                  absl::StrCat("refused: the checkpoint of ", fresh->size,
                               " leaves is not a consistent extension of the one of ",
                               kept->size, " leaves in ", opts.watch,
                               " (the log's history was rewritten): ", consistent.message()));
    }
  }
  if (absl::Status s = WriteAtomically(opts.watch, latest.note()); !s.ok()) {
    return Fail(kExitFailure, std::string(s.message()));
  }
  std::cout << "checkpoint of " << fresh->size << " leaves verified"
            << (kept.has_value() ? absl::StrCat(" as an extension of ", kept->size) : "")
            << "; kept in " << opts.watch << "\n";
  return kExitOk;
}

}  // namespace

void AddTransparencyCommands(CLI::App& app, const GlobalOptions& global, int& exit_code) {
  auto exported = std::make_shared<ExportOpts>();
  CLI::App* cmd = app.add_subcommand(
      "export", "Write a game's audit bundle: its events, hashes, inclusion proof and checkpoint");
  cmd->add_option("game", exported->game, "Game id or name (games/ID)")->required();
  cmd->add_option("-o,--output", exported->output, "Bundle file (default: standard output)");
  cmd->add_option("--tree-size", exported->tree_size,
                  "Prove against the checkpoint of this size (default: the latest)");
  AddClientOptions(*cmd, exported->client);
  cmd->callback([exported, &exit_code] { exit_code = RunExport(*exported); });

  auto audit = std::make_shared<AuditOpts>();
  cmd = app.add_subcommand("audit",
                           "Check an audit bundle offline: signature, chain, inclusion, replay, "
                           "rulings (exit 4 naming what does not hold)");
  cmd->add_option("bundle", audit->bundle, "Bundle file from `arbiter export`")->required();
  cmd->add_option("--public-key", audit->public_key,
                  "The log's verifier key (transparency.pub, or GetPublicKey)")
      ->required();
  cmd->add_option("--previous", audit->previous,
                  "An export of the same game taken before: every event it holds must be "
                  "unchanged in this one");
  cmd->callback([audit, &global, &exit_code] { exit_code = RunAudit(*audit, global); });

  auto checkpoint = std::make_shared<CheckpointOpts>();
  cmd = app.add_subcommand("checkpoint",
                           "Follow the log's signed checkpoints: verify the latest and its "
                           "consistency with the one kept (exit 4 if it rewrites history)");
  cmd->add_option("--watch", checkpoint->watch,
                  "File keeping the last verified checkpoint (created on first use)");
  cmd->add_option("--public-key", checkpoint->public_key, "The log's verifier key");
  cmd->add_flag("--publish", checkpoint->publish, "Sign a checkpoint now first (admin)");
  AddClientOptions(*cmd, checkpoint->client);
  cmd->callback([checkpoint, &exit_code] { exit_code = RunCheckpoint(*checkpoint); });
}

}  // namespace arbiter::cli
