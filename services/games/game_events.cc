#include "services/games/game_events.h"

#include <google/protobuf/util/message_differencer.h>

#include <algorithm>

#include "services/common/resource_names.h"
#include "services/common/proto_time.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/util/time_util.h>

#include <memory>

#include "absl/strings/str_cat.h"
#include "engine/core/sha256.h"
#include "services/log/json_lines.h"
#include "services/store/event_hash.h"

namespace arbiter::games {
namespace {

std::string Deterministic(const google::protobuf::Message& message) {
  std::string out;
  {
    google::protobuf::io::StringOutputStream stream(&out);
    google::protobuf::io::CodedOutputStream coded(&stream);
    coded.SetSerializationDeterministic(true);
    message.SerializeToCodedStream(&coded);
  }
  return out;
}

absl::StatusOr<store::NewEvent> Encode(const std::string& game_id, int64_t number,
                                       const char* type, const google::protobuf::Message& body) {
  store::NewEvent event;
  event.event_id = EventId(game_id, number);
  event.type = type;
  // Fields this server does not know (a newer client's, or junk) are
  // dropped before the payload is hashed: what is stored is what the
  // referee judged.
  std::unique_ptr<google::protobuf::Message> known(body.New());
  known->CopyFrom(body);
  known->DiscardUnknownFields();
  event.payload = Deterministic(*known);
  if (static_cast<int64_t>(event.payload.size()) > store::kMaxPayloadBytes) {
    return absl::InvalidArgumentError(absl::StrCat("event ", number, " is ", event.payload.size(),
                                                   " bytes; the limit is ",
                                                   store::kMaxPayloadBytes));
  }
  event.json = log::ToJsonLine(*known);
  return event;
}

bool IsLowerHex(const std::string& text) {
  for (char c : text) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

}  // namespace

std::string DerivedGameId(const std::string& principal, const std::string& request_id) {
  return absl::StrCat("g-",
                      engine::Sha256Hex(absl::StrCat(principal.size(), ":", principal, request_id))
                          .substr(0, 24));
}

std::string StoreRequestId(const std::string& kind, const std::string& game_id,
                           const std::string& principal, const std::string& request_id) {
  return absl::StrCat(kind, "-",
                      engine::Sha256Hex(absl::StrCat(game_id.size(), ":", game_id, principal.size(),
                                                     ":", principal, request_id)));
}

std::string EventId(const std::string& game_id, int64_t number) {
  return store::DerivedEventId(game_id, number);
}

absl::StatusOr<store::NewEvent> EncodeCreated(const std::string& game_id,
                                              const v1::GameCreated& created) {
  return Encode(game_id, 1, kTypeGameCreated, created);
}

absl::StatusOr<store::NewEvent> EncodeAction(const std::string& game_id, int64_t number,
                                             const v1::Action& action) {
  return Encode(game_id, number, kTypeAction, action);
}

absl::StatusOr<store::NewEvent> EncodeSeedRevealed(const std::string& game_id, int64_t number,
                                                   const v1::SeedRevealed& revealed) {
  return Encode(game_id, number, kTypeSeedRevealed, revealed);
}

absl::StatusOr<store::NewEvent> EncodeSeatValue(const std::string& game_id, int64_t number,
                                                const v1::SeatValueAdded& value) {
  return Encode(game_id, number, kTypeSeatValue, value);
}

absl::StatusOr<store::NewEvent> EncodeDealClosed(const std::string& game_id, int64_t number,
                                                 const v1::DealClosed& closed) {
  return Encode(game_id, number, kTypeDealClosed, closed);
}

absl::StatusOr<store::NewEvent> EncodeDealerRevealed(const std::string& game_id, int64_t number,
                                                     const v1::DealerRevealed& revealed) {
  return Encode(game_id, number, kTypeDealerRevealed, revealed);
}

absl::StatusOr<store::NewEvent> EncodeGameFinished(const std::string& game_id, int64_t number,
                                                   const v1::GameFinished& finished) {
  return Encode(game_id, number, store::kGameFinishedType, finished);
}

absl::StatusOr<store::NewEvent> EncodeGameVoided(const std::string& game_id, int64_t number,
                                                 const v1::GameVoided& voided) {
  return Encode(game_id, number, store::kGameVoidedType, voided);
}

v1::GameFinished FinishedBody(const v1::GameCreated& created, const v1::Adjudication& judged) {
  v1::GameFinished finished;
  finished.set_verdict(judged.verdict());
  finished.set_actions(judged.actions());
  if (judged.has_violation()) {
    *finished.mutable_violation() = judged.violation();
    // The words are the engine's, computed when read: the stored body keeps
    // the violation as it has always been encoded.
    finished.mutable_violation()->clear_action_text();
  }
  if (judged.has_standings()) *finished.mutable_standings() = judged.standings();
  finished.set_game_type(created.header().game());
  finished.set_league(created.league());
  finished.set_tournament(created.tournament());
  for (const v1::Player& player : created.header().players()) finished.add_players(player.id());
  finished.mutable_options()->insert(created.header().options().begin(),
                                     created.header().options().end());
  finished.set_duplicate_of(created.duplicate_of());
  return finished;
}

absl::StatusOr<v1::Event> DecodeEvent(const store::StoredEvent& stored) {
  v1::Event event;
  event.set_name(absl::StrCat(common::NameOf(common::IdKind::kGame, stored.game_id), "/events/", stored.sequence));
  event.set_event(stored.sequence);
  event.set_type(stored.type);
  bool parsed = false;
  if (stored.type == kTypeGameCreated) {
    parsed = event.mutable_game_created()->ParseFromString(stored.payload);
  } else if (stored.type == kTypeAction) {
    parsed = event.mutable_action()->ParseFromString(stored.payload);
  } else if (stored.type == kTypeSeedRevealed) {
    parsed = event.mutable_seed_revealed()->ParseFromString(stored.payload);
  } else if (stored.type == kTypeSeatValue) {
    parsed = event.mutable_seat_value()->ParseFromString(stored.payload);
  } else if (stored.type == kTypeDealClosed) {
    parsed = event.mutable_deal_closed()->ParseFromString(stored.payload);
  } else if (stored.type == kTypeDealerRevealed) {
    parsed = event.mutable_dealer_revealed()->ParseFromString(stored.payload);
  } else if (stored.type == store::kGameFinishedType) {
    parsed = event.mutable_game_finished()->ParseFromString(stored.payload);
  } else if (stored.type == store::kGameVoidedType) {
    parsed = event.mutable_game_voided()->ParseFromString(stored.payload);
  } else {
    return absl::DataLossError(absl::StrCat("event ", stored.sequence, " of game \"",
                                            stored.game_id, "\" has the unknown type \"",
                                            stored.type, "\""));
  }
  if (!parsed) {
    return absl::DataLossError(absl::StrCat("event ", stored.sequence, " of game \"",
                                            stored.game_id, "\" (", stored.type,
                                            ") does not decode"));
  }
  event.set_payload(stored.payload);
  event.set_event_id(stored.event_id);
  event.set_prev_hash(stored.prev_hash);
  event.set_hash(stored.hash);
  event.set_recorder(stored.recorded_by);
  *event.mutable_record_time() = common::PreciseTimestampOf(stored.recorded_at);
  return event;
}

absl::StatusOr<std::string> SeedCommitment(uint64_t seed, const std::string& nonce) {
  if (nonce.size() < 32 || nonce.size() > 128 || !IsLowerHex(nonce)) {
    return absl::InvalidArgumentError(
        "nonce must be 32-128 lowercase hex digits (at least 128 random bits)");
  }
  return engine::Sha256Hex(absl::StrCat("arbiter-seed-v1:", seed, ":", nonce));
}

bool HandSight::Sees(const std::string& player) const {
  return all || std::find(players.begin(), players.end(), player) != players.end();
}

HandSight HandSightOf(const std::optional<engine::Viewer>& viewer,
                      const std::vector<std::string>& players) {
  HandSight sight;
  if (!viewer.has_value()) return sight;
  sight.all = true;
  for (std::size_t seat = 0; seat < players.size(); ++seat) {
    if (viewer->SeesHandOf(static_cast<int>(seat))) {
      sight.players.push_back(players[seat]);
    } else {
      sight.all = false;
    }
  }
  return sight;
}

void HideHand(v1::Event& event, const engine::Game* game, const HandSight& sight) {
  if (game == nullptr || !event.has_action() || sight.Sees(event.action().player())) return;
  v1::Action open = game->OpenPart(event.action());
  if (google::protobuf::util::MessageDifferencer::Equals(open, event.action())) return;
  *event.mutable_action() = std::move(open);
  event.clear_payload();
}

void HideSeed(v1::Event& event) {
  if (event.has_game_created() && event.game_created().header().seed() != 0) {
    event.mutable_game_created()->mutable_header()->clear_seed();
    event.clear_payload();
  }
  if (event.has_seed_revealed()) {
    event.mutable_seed_revealed()->Clear();
    event.clear_payload();
  }
  if (event.has_dealer_revealed()) {
    event.mutable_dealer_revealed()->Clear();
    event.clear_payload();
  }
}

}  // namespace arbiter::games
