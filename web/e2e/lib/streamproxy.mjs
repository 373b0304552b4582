// A TCP proxy in front of a server that can cut a room's event streams
// (GET /rooms/{id}/events) and refuse new ones while everything else goes
// through: how the live-room test drops a browser's stream for real (the
// browser sees the connection end, as when a network goes away) and keeps
// its saves working, which is how a stale save is made on purpose.
import net from "node:net";

const STREAM_REQUEST = /^GET \/rooms\/[^/ ]+\/events[ ?]/;

/**
 * Listens on a free port of 127.0.0.1 and forwards to target (a
 * "host:port"); resolves with {base, cut(), restore(), open(), close()}:
 * cut() ends every open stream and refuses new ones until restore().
 */
export async function streamProxy(target) {
  const [host, port] = target.split(":");
  const streams = new Set();
  const all = new Set();
  let refusing = false;
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(port), host);
    all.add(client);
    let isStream = false;
    client.on("data", (chunk) => {
      // A request starts its own chunk on a connection the browser reuses: a stream's is recognised by its first line.
      if (!isStream && STREAM_REQUEST.test(chunk.toString("latin1", 0, 200))) {
        isStream = true;
        if (refusing) {
          client.destroy();
          upstream.destroy();
          return;
        }
        streams.add(client);
      }
      upstream.write(chunk);
    });
    upstream.on("data", (chunk) => client.write(chunk));
    const end = () => {
      streams.delete(client);
      all.delete(client);
      client.destroy();
      upstream.destroy();
    };
    client.on("close", end);
    upstream.on("close", end);
    client.on("error", end);
    upstream.on("error", end);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    base: `http://127.0.0.1:${server.address().port}`,
    /** Ends the open streams and refuses new ones. */
    cut() {
      refusing = true;
      for (const s of streams) s.destroy();
      streams.clear();
    },
    /** Lets streams through again. */
    restore() {
      refusing = false;
    },
    /** How many streams are open through the proxy. */
    open: () => streams.size,
    close() {
      for (const s of all) s.destroy();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}
