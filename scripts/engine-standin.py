#!/usr/bin/env python3
"""Stand-ins for N data planes, to measure what the controller costs (scripts/bench-controller.sh).
Each serves linerate's JSON-RPC (one JSON object a line) over mutual TLS on a port of its own and
answers the methods a recording calls (hello, port.list, traffic.status, stats.ports,
stats.streams, port.counters) with the answers a real data plane gave, recorded in ANSWERS.
It counts nothing: it stands in only for what the controller reads, parses and writes.

Usage: engine-standin.py ANSWERS CERTS N LOCATIONS
  ANSWERS   JSON {method: result}, port.counters as {port: result}
  CERTS     scripts/engine-certs.sh's folder (engine-1 for 127.0.0.1)
  N         how many stand-ins
  LOCATIONS where to write their location map ([{"location": "standin-K", "endpoint": ...}])
Serves until SIGTERM or SIGINT."""
import asyncio
import json
import os
import signal
import ssl
import sys


def tls_context(certs):
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(os.path.join(certs, "engine-1.pem"), os.path.join(certs, "engine-1.key"))
    context.load_verify_locations(os.path.join(certs, "ca.pem"))
    context.verify_mode = ssl.CERT_REQUIRED
    return context


def answer(answers, index, request):
    method, params = request.get("method"), request.get("params") or {}
    if method == "hello":
        result = dict(answers["hello"], node="standin-%d" % index, session=index)
    elif method == "port.counters":
        result = answers["port.counters"].get(params.get("port"))
    else:
        result = answers.get(method)
    if result is None:
        return {"jsonrpc": "2.0", "id": request.get("id"),
                "error": {"code": -32601, "message": "the stand-in does not answer %s" % method}}
    return {"jsonrpc": "2.0", "id": request.get("id"), "result": result}


async def serve(answers, index, reader, writer):
    try:
        while line := await reader.readline():
            writer.write((json.dumps(answer(answers, index, json.loads(line))) + "\n").encode())
            await writer.drain()
    except (ConnectionError, ssl.SSLError):
        pass
    finally:
        writer.close()


async def main(answers_path, certs, count, locations_path):
    with open(answers_path) as f:
        answers = json.load(f)
    context = tls_context(certs)
    servers, entries = [], []
    for index in range(count):
        server = await asyncio.start_server(lambda r, w, i=index: serve(answers, i, r, w), "127.0.0.1", 0, ssl=context)
        servers.append(server)
        entries.append({"location": "standin-%02d" % index,
                        "endpoint": "127.0.0.1:%d" % server.sockets[0].getsockname()[1]})
    with open(locations_path + ".part", "w") as f:
        json.dump(entries, f)
    os.rename(locations_path + ".part", locations_path)  # whole, or not there
    stop = asyncio.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        asyncio.get_running_loop().add_signal_handler(sig, stop.set)
    await stop.wait()


if __name__ == "__main__":
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    asyncio.run(main(sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]))
