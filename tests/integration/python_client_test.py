#!/usr/bin/env python3
"""Drives a running arbiterd from Python's grpcio, with messages built from
Arbiter's protos by protoc --python_out (no generated gRPC stubs needed).

Starts arbiterd with no database flags (the embedded PostgreSQL in a fresh
--data-dir), reads the bootstrap admin token, submits a simulated log, checks
an illegal append's google.rpc error details, the standard health service and
server reflection, then stops arbiterd with SIGTERM and starts it again on the
same data directory to see that everything acknowledged is still there.

Usage: python_client_test.py --arbiterd PATH --arbiter PATH --proto-dir DIR
"""
import argparse
import os
import re
import signal
import stat
import subprocess
import sys
import tempfile
import unittest

import grpc

ARGS = None


def generate_messages(proto_dir, out_dir):
    os.makedirs(out_dir, exist_ok=True)
    protos = []
    for root, _, files in os.walk(proto_dir):
        protos += [os.path.join(root, f) for f in files if f.endswith(".proto")]
    subprocess.run(["protoc", f"-I{proto_dir}", f"--python_out={out_dir}"] + protos, check=True)
    sys.path.insert(0, out_dir)


class Daemon:
    """arbiterd in a data directory; stopped with SIGTERM."""

    def __init__(self, data_dir, extra=()):
        self.process = subprocess.Popen(
            [ARGS.arbiterd, "--data-dir", data_dir, "--listen", "127.0.0.1:0", "--http-listen", "",
             *extra],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self.banner = ""
        for line in self.process.stdout:
            self.banner += line
            match = re.search(r"listening on (\S+) ", line)
            if match:
                self.address = match.group(1)
                return
        raise RuntimeError("arbiterd did not start:\n" + self.banner)

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        code = self.process.wait(timeout=120)
        self.process.stdout.close()
        return code


def call(channel, service, method, request, response_type, token):
    stub = channel.unary_unary(f"/arbiter.v1.{service}/{method}",
                               request_serializer=lambda m: m.SerializeToString(),
                               response_deserializer=response_type.FromString)
    metadata = [("authorization", f"Bearer {token}")] if token else []
    return stub(request, metadata=metadata, timeout=60)


def error_details(error):
    from google.rpc import status_pb2, error_details_pb2
    for key, value in error.trailing_metadata() or ():
        if key == "grpc-status-details-bin":
            status = status_pb2.Status.FromString(value)
            found = {}
            for any_message in status.details:
                for kind in (error_details_pb2.ErrorInfo, error_details_pb2.BadRequest):
                    message = kind()
                    if any_message.Unpack(message):
                        found[kind.__name__] = message
            return found
    return {}


class PythonClientTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.work = tempfile.TemporaryDirectory()
        os.chmod(cls.work.name, 0o755)  # as root, the cluster runs as "postgres"
        generate_messages(ARGS.proto_dir, os.path.join(cls.work.name, "py"))
        cls.data_dir = os.path.join(cls.work.name, "data")
        cls.daemon = Daemon(cls.data_dir)
        token_file = os.path.join(cls.data_dir, "admin.token")
        cls.token_mode = stat.S_IMODE(os.stat(token_file).st_mode)
        with open(token_file) as f:
            cls.token = f.read().strip()
        cls.channel = grpc.insecure_channel(cls.daemon.address)
        log = subprocess.run([ARGS.arbiter, "simulate", "atlantis", "--players", "3", "--seed", "5"],
                             check=True, capture_output=True, text=True).stdout
        cls.log_text = log

    @classmethod
    def tearDownClass(cls):
        cls.channel.close()
        if cls.daemon.process.poll() is None:
            cls.daemon.stop()
        cls.work.cleanup()

    def test_1_first_start_writes_a_private_admin_token(self):
        self.assertIn("admin.token", self.daemon.banner)
        self.assertEqual(self.token_mode, 0o600)

    def test_2_submit_game_answers_the_verdict_and_standings(self):
        from arbiter.v1 import arbiter_service_pb2 as api
        request = api.SubmitGameRequest(request_id="py-1", game_id="py-game", log=self.log_text)
        response = call(self.channel, "ArbiterService", "SubmitGame", request,
                        api.SubmitGameResponse, self.token)
        self.assertEqual(response.game.name, "games/py-game")
        self.assertEqual(response.adjudication.verdict, api.VERDICT_LEGAL)
        self.assertEqual(len(response.adjudication.standings.players), 3)
        # One event per line, then the game's result (game_finished).
        self.assertEqual(response.game.last_event, len(self.log_text.splitlines()) + 1)
        adjudication = call(self.channel, "ArbiterService", "AdjudicateGame",
                            api.AdjudicateGameRequest(name="games/py-game"), api.Adjudication,
                            self.token)
        self.assertEqual(adjudication.standings, response.adjudication.standings)

    def test_3_an_illegal_append_carries_error_info_and_bad_request(self):
        from arbiter.v1 import arbiter_service_pb2 as api
        from arbiter.v1 import action_pb2
        from arbiter.v1 import log_pb2
        from google.protobuf import json_format
        lines = self.log_text.splitlines()
        header = json_format.Parse(lines[0], log_pb2.LogHeader())
        actions = [json_format.Parse(line, action_pb2.Action()) for line in lines[1:]]
        created = call(self.channel, "ArbiterService", "CreateGame", api.CreateGameRequest(
            request_id="py-create", game_id="py-live",
            game=api.Game(game_type=header.game, ruleset_id=header.ruleset_id,
                          ruleset_hash=header.ruleset_hash, players=header.players,
                          seed=header.seed)), api.Game, self.token)
        self.assertEqual(created.last_event, 1)
        # An action by someone other than the first mover, played first.
        wrong = next(a for a in actions if a.player != actions[0].player)
        with self.assertRaises(grpc.RpcError) as raised:
            call(self.channel, "ArbiterService", "AppendActions", api.AppendActionsRequest(
                game="games/py-live", request_id="py-bad", expected_last_event=1,
                actions=[wrong]), api.AppendActionsResponse, self.token)
        self.assertEqual(raised.exception.code(), grpc.StatusCode.INVALID_ARGUMENT)
        details = error_details(raised.exception)
        self.assertEqual(details["ErrorInfo"].reason, "ILLEGAL_ACTION")
        self.assertEqual(details["ErrorInfo"].metadata["event"], "2")
        self.assertEqual(details["ErrorInfo"].metadata["rule"], "not_your_turn")
        self.assertEqual(details["ErrorInfo"].metadata["player"], wrong.player)
        self.assertEqual(details["BadRequest"].field_violations[0].field, "actions[0]")
        self.assertTrue(details["BadRequest"].field_violations[0].description.startswith(
            "not_your_turn: "))
        appended = call(self.channel, "ArbiterService", "AppendActions", api.AppendActionsRequest(
            game="games/py-live", request_id="py-good", expected_last_event=1,
            actions=[actions[0]]), api.AppendActionsResponse, self.token)
        self.assertEqual(appended.last_event, 2)

    def test_4_a_missing_token_is_unauthenticated(self):
        from arbiter.v1 import arbiter_service_pb2 as api
        with self.assertRaises(grpc.RpcError) as raised:
            call(self.channel, "ArbiterService", "ListGames", api.ListGamesRequest(),
                 api.ListGamesResponse, None)
        self.assertEqual(raised.exception.code(), grpc.StatusCode.UNAUTHENTICATED)

    def test_5_stock_tools_find_the_health_service_and_reflection(self):
        check = self.channel.unary_unary("/grpc.health.v1.Health/Check",
                                         request_serializer=bytes, response_deserializer=bytes)
        self.assertEqual(check(b"", timeout=30), b"\x08\x01")  # status: SERVING
        reflect = self.channel.stream_stream(
            "/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo",
            request_serializer=bytes, response_deserializer=bytes)
        answers = list(reflect(iter([b"\x3a\x00"]), timeout=30))  # list_services: ""
        self.assertIn(b"arbiter.v1.ArbiterService", answers[0])
        self.assertIn(b"grpc.health.v1.Health", answers[0])

    def test_6_a_restart_keeps_the_games_and_the_token(self):
        from arbiter.v1 import arbiter_service_pb2 as api
        self.assertEqual(self.daemon.stop(), 0)
        self.channel.close()
        type(self).daemon = Daemon(self.data_dir)
        self.assertNotIn("First start", self.daemon.banner)
        type(self).channel = grpc.insecure_channel(self.daemon.address)
        game = call(self.channel, "ArbiterService", "GetGame",
                    api.GetGameRequest(name="games/py-live"), api.Game, self.token)
        self.assertEqual(game.last_event, 2)

    def test_7_tls_with_a_certificate_and_key_from_flags(self):
        from arbiter.v1 import arbiter_service_pb2 as api
        cert = os.path.join(self.work.name, "cert.pem")
        key = os.path.join(self.work.name, "key.pem")
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                        "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost",
                        "-keyout", key, "-out", cert], check=True, capture_output=True)
        self.assertEqual(self.daemon.stop(), 0)
        self.channel.close()
        type(self).daemon = Daemon(self.data_dir, ["--tls-cert", cert, "--tls-key", key])
        self.assertIn("(TLS)", self.daemon.banner)
        port = self.daemon.address.rsplit(":", 1)[1]
        with open(cert, "rb") as f:
            credentials = grpc.ssl_channel_credentials(root_certificates=f.read())
        type(self).channel = grpc.secure_channel(f"localhost:{port}", credentials)
        game = call(self.channel, "ArbiterService", "GetGame",
                    api.GetGameRequest(name="games/py-live"), api.Game, self.token)
        self.assertEqual(game.last_event, 2)
        with grpc.insecure_channel(self.daemon.address) as plain:
            with self.assertRaises(grpc.RpcError):
                call(plain, "ArbiterService", "GetGame", api.GetGameRequest(name="games/py-live"),
                     api.Game, self.token)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--arbiterd", required=True)
    parser.add_argument("--arbiter", required=True)
    parser.add_argument("--proto-dir", required=True)
    ARGS, rest = parser.parse_known_args()
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)
