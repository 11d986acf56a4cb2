package io.pdgateway.server.redis;

import io.pdgateway.core.ledger.RemoteLoad;
import io.pdgateway.core.ledger.RequestLedger;
import io.pdgateway.core.ledger.TokenLedger;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisOptions;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Shares the running-request counts and (with AIBRIX_TOKEN_LOAD_SHARED_LEDGER) the decode ledger between gateway
 * replicas through Redis. Every round, one script call publishes this replica's charges under a key that expires
 * when the replica stops publishing, and returns every other live replica's: one round trip. When Redis fails the
 * replica routes on its local view, says so once in the log and on a gauge, and rejoins by itself on the next good
 * round. No request waits for Redis: routing reads the last snapshot.
 */
public final class SharedLedgerSync implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SharedLedgerSync.class);
    /** Reference §4: upstream syncs the replicas' counts every 100 ms. */
    static final long SYNC_INTERVAL_MS = 100;
    /** A replica that has not published for this long is gone, and its charges with it. */
    static final long REPLICA_TTL_MS = 1_000;
    /** A round that takes longer than this counts as failed: Redis is too slow to be trusted. */
    static final long ROUND_TIMEOUT_MS = 1_000;

    /**
     * ARGV: my id, TTL (ms), my payload. Liveness is judged on the store's clock, never a replica's: a replica whose
     * wall clock is off would otherwise drop the others (clock ahead) or be dropped by them (clock behind). Writes my
     * payload with a TTL, registers me at Redis's TIME, drops replicas whose heartbeat is older than the TTL, and
     * returns Redis's now (ms) followed by each other replica's heartbeat (ms) and payload.
     */
    private static final String SCRIPT = """
            local prefix = 'pd-gateway:replica:'
            local t = redis.call('TIME')
            local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
            redis.call('SET', prefix .. ARGV[1], ARGV[3], 'PX', ARGV[2])
            redis.call('ZADD', 'pd-gateway:replicas', now, ARGV[1])
            redis.call('ZREMRANGEBYSCORE', 'pd-gateway:replicas', '-inf', now - tonumber(ARGV[2]))
            local out = {tostring(now)}
            local others = redis.call('ZRANGE', 'pd-gateway:replicas', 0, -1, 'WITHSCORES')
            for i = 1, #others, 2 do
              local id = others[i]
              if id ~= ARGV[1] then
                local v = redis.call('GET', prefix .. id)
                if v then
                  table.insert(out, others[i + 1])
                  table.insert(out, v)
                end
              end
            end
            return out
            """;

    private final Vertx vertx;
    private final Redis redis;
    private final String replicaId = UUID.randomUUID().toString();
    private final RequestLedger requests;
    private final TokenLedger tokens;
    private final boolean shareDecodeLedger;
    private final LongSupplier wallClock;
    private volatile RemoteLoad remote = RemoteLoad.NONE;
    private volatile boolean degraded;
    private long timer = -1;
    private long round;
    private boolean roundInFlight;

    public SharedLedgerSync(Vertx vertx, String host, int port, String password, RequestLedger requests,
            TokenLedger tokens, boolean shareDecodeLedger) {
        this(vertx, host, port, password, requests, tokens, shareDecodeLedger, System::currentTimeMillis);
    }

    /** @param wallClock this replica's epoch milliseconds (a test skews it); Redis's clock decides liveness */
    public SharedLedgerSync(Vertx vertx, String host, int port, String password, RequestLedger requests,
            TokenLedger tokens, boolean shareDecodeLedger, LongSupplier wallClock) {
        this.vertx = vertx;
        this.wallClock = wallClock;
        RedisOptions options = new RedisOptions().setConnectionString("redis://" + host + ":" + port);
        if (password != null) {
            options.setPassword(password);
        }
        this.redis = Redis.createClient(vertx, options);
        this.requests = requests;
        this.tokens = tokens;
        this.shareDecodeLedger = shareDecodeLedger;
    }

    public void start() {
        timer = vertx.setPeriodic(SYNC_INTERVAL_MS, id -> syncRound());
    }

    /** What the other replicas hold, as of the last good round; empty while degraded. */
    public RemoteLoad remote() {
        return remote;
    }

    public boolean degraded() {
        return degraded;
    }

    private void syncRound() {
        if (roundInFlight) {
            return;
        }
        roundInFlight = true;
        long thisRound = ++round;
        long now = wallClock.getAsLong();
        Request call = Request.cmd(Command.EVAL).arg(SCRIPT).arg(0).arg(replicaId).arg(REPLICA_TTL_MS)
                .arg(ReplicaPayload.encode(now, localLoad()));
        long watchdog = vertx.setTimer(ROUND_TIMEOUT_MS, id -> {
            if (round == thisRound && roundInFlight) {
                roundInFlight = false;
                round++; // the late answer, if any, is ignored
                failed("no answer within " + ROUND_TIMEOUT_MS + " ms");
            }
        });
        redis.send(call).onComplete(ar -> {
            if (round != thisRound) {
                return;
            }
            vertx.cancelTimer(watchdog);
            roundInFlight = false;
            if (ar.failed()) {
                failed(String.valueOf(ar.cause().getMessage()));
            } else {
                succeeded(ar.result());
            }
        });
    }

    private Map<String, RemoteLoad.PodLoad> localLoad() {
        return RemoteLoad.published(requests, tokens, shareDecodeLedger, System.nanoTime(), wallClock.getAsLong());
    }

    /**
     * Each other replica's payload, its timestamps moved onto this replica's clock: the heartbeat Redis recorded, plus
     * the offset between this clock and Redis's (read in the same round), so a skewed replica's own stamps never
     * age its requests wrongly.
     */
    private void succeeded(Response response) {
        long localNow = wallClock.getAsLong();
        long offset = localNow - Long.parseLong(response.get(0).toString());
        List<Map<String, RemoteLoad.PodLoad>> replicas = new ArrayList<>();
        for (int i = 1; i + 1 < response.size(); i += 2) {
            long heartbeat = (long) Double.parseDouble(response.get(i).toString());
            replicas.add(ReplicaPayload.decode(response.get(i + 1).toString(), heartbeat + offset));
        }
        remote = RemoteLoad.sum(replicas, localNow);
        if (degraded) {
            degraded = false;
            LOG.info("Redis reachable again: sharing the decode ledger and running counts with {} other replica(s)",
                    replicas.size());
        }
    }

    private void failed(String why) {
        remote = RemoteLoad.NONE;
        if (!degraded) {
            degraded = true;
            LOG.warn("Redis unreachable ({}): routing on this replica's own view until it returns", why);
        }
    }

    @Override
    public void close() {
        if (timer >= 0) {
            vertx.cancelTimer(timer);
        }
        redis.close();
    }
}
