package org.specbridge.shim;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The hand-off from the AM's dispatcher thread to the shim's worker, and the batching of events into frames:
 * a batch is due {@code batch.ms} after its first event reached the worker, or as soon as it holds
 * {@code batch.max} events, whichever comes first.
 *
 * <p>{@link #offer} never blocks (the dispatcher must not wait for the sidecar): when the bounded queue is full
 * the event is dropped and counted, and the shim resyncs. {@link #next} is called by the worker only.
 *
 * <p>Choice: a batch's age counts from the moment the worker took its first event off the queue, not from the
 * event's timestamp (which is the AM's clock, possibly a test's controlled one). An idle worker waits on the
 * queue, so the two differ only while the worker is busy sending the previous batch.
 */
final class EventBatcher<E> {
  private final LinkedBlockingQueue<E> queue;
  private final long batchNs;
  private final int batchMax;
  private final List<E> pending = new ArrayList<E>();
  private long firstAt;
  final AtomicLong dropped = new AtomicLong();
  private volatile boolean overflowed;

  EventBatcher(int capacity, long batchMs, int batchMax) {
    if (capacity <= 0 || batchMs <= 0 || batchMax <= 0) {
      throw new IllegalArgumentException("capacity, batch.ms and batch.max must be positive");
    }
    this.queue = new LinkedBlockingQueue<E>(capacity);
    this.batchNs = TimeUnit.MILLISECONDS.toNanos(batchMs);
    this.batchMax = batchMax;
  }

  /** Hands an event to the worker; false (and counted) when the queue is full. Never blocks. */
  boolean offer(E e) {
    if (queue.offer(e)) {
      return true;
    }
    dropped.incrementAndGet();
    overflowed = true;
    return false;
  }

  /** True once after events were dropped: the caller resyncs. */
  boolean takeOverflow() {
    if (!overflowed) {
      return false;
    }
    overflowed = false;
    return true;
  }

  /** Events offered and not yet returned in a batch. */
  int backlog() {
    return queue.size() + pending.size();
  }

  /**
   * Waits until a batch is due or maxWaitMs has passed, whichever is first, and returns the batch due (empty
   * when none is). The returned list is the caller's.
   */
  List<E> next(long maxWaitMs) throws InterruptedException {
    long now = System.nanoTime();
    long deadline = now + TimeUnit.MILLISECONDS.toNanos(Math.max(0, maxWaitMs));
    while (true) {
      if (pending.size() < batchMax) {
        int before = pending.size();
        queue.drainTo(pending, batchMax - before);
        if (before == 0 && !pending.isEmpty()) {
          firstAt = now;
        }
      }
      if (pending.size() >= batchMax || (!pending.isEmpty() && now - firstAt >= batchNs)) {
        List<E> out = new ArrayList<E>(pending);
        pending.clear();
        return out;
      }
      long until = pending.isEmpty() ? deadline : Math.min(deadline, firstAt + batchNs);
      if (now >= until) {
        return new ArrayList<E>(0);
      }
      E e = queue.poll(until - now, TimeUnit.NANOSECONDS);
      now = System.nanoTime();
      if (e != null) {
        if (pending.isEmpty()) {
          firstAt = now;
        }
        pending.add(e);
      }
    }
  }
}
