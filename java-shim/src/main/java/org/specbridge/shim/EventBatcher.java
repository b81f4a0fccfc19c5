package org.specbridge.shim;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The hand-off from the AM's dispatcher thread to the shim's worker, and the batching of events into frames:
 * a batch is due {@code batch.ms} after its first event was offered, or as soon as {@code batch.max} events
 * are queued, whichever comes first; a batch holds at most {@code batch.max} events.
 *
 * <p>{@link #offer} never waits for the worker or the sidecar: it holds the lock only to append (the worker
 * holds it only to take a batch), and when the bounded queue is full the event is dropped and counted, and
 * the shim resyncs. It wakes the worker only when a batch starts (the worker sleeps until the batch is due)
 * or fills up, not per event: a wake-up per event would cost both threads a context switch per event, more
 * than the event's translation.
 *
 * <p>{@link #next} is called by the worker only.
 */
final class EventBatcher<E> {
  private final int capacity;
  private final long batchNs;
  private final int batchMax;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition ready = lock.newCondition();
  /** Guarded by lock. */
  private final ArrayDeque<E> queue = new ArrayDeque<E>();
  /** Guarded by lock: System.nanoTime() when the oldest queued event was offered. */
  private long firstAt;
  /** Events of the batch the worker last took, until it asks for the next (guarded by lock). */
  private int working;
  /** Guarded by lock: the worker waits for a batch to start. */
  private boolean idle;
  final AtomicLong dropped = new AtomicLong();
  private volatile boolean overflowed;

  EventBatcher(int capacity, long batchMs, int batchMax) {
    if (capacity <= 0 || batchMs <= 0 || batchMax <= 0) {
      throw new IllegalArgumentException("capacity, batch.ms and batch.max must be positive");
    }
    this.capacity = capacity;
    this.batchNs = TimeUnit.MILLISECONDS.toNanos(batchMs);
    this.batchMax = batchMax;
  }

  /** Hands an event to the worker; false (and counted) when the queue is full. */
  boolean offer(E e) {
    lock.lock();
    try {
      int n = queue.size();
      if (n >= capacity) {
        dropped.incrementAndGet();
        overflowed = true;
        return false;
      }
      queue.addLast(e);
      if (n == 0) {
        firstAt = System.nanoTime();
        if (idle) {
          ready.signal();
        }
      } else if (n + 1 == batchMax) {
        ready.signal();
      }
      return true;
    } finally {
      lock.unlock();
    }
  }

  /** True once after events were dropped: the caller resyncs. */
  boolean takeOverflow() {
    if (!overflowed) {
      return false;
    }
    overflowed = false;
    return true;
  }

  /** Drops every queued event (the job is not bridged after all); not counted as dropped. */
  void clear() {
    lock.lock();
    try {
      queue.clear();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Events offered and not yet done with: those queued, and those of the last batch taken until the worker asks
   * for the next one (its call to next says it has sent or dropped them).
   */
  int unfinished() {
    lock.lock();
    try {
      return queue.size() + working;
    } finally {
      lock.unlock();
    }
  }

  /** Events offered and not yet taken in a batch. */
  int backlog() {
    lock.lock();
    try {
      return queue.size();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Waits until a batch is due or maxWaitMs has passed, whichever is first, and returns the batch due (empty
   * when none is). The returned list is the caller's.
   */
  List<E> next(long maxWaitMs) throws InterruptedException {
    lock.lock();
    try {
      working = 0; // the caller is done with the last batch
      long now = System.nanoTime();
      long deadline = now + TimeUnit.MILLISECONDS.toNanos(Math.max(0, maxWaitMs));
      while (true) {
        int n = queue.size();
        if (n >= batchMax || (n > 0 && now - firstAt >= batchNs)) {
          int take = Math.min(n, batchMax);
          List<E> out = new ArrayList<E>(take);
          for (int i = 0; i < take; i++) {
            out.add(queue.pollFirst());
          }
          // What is left is as old as the batch just taken: it is due at once.
          working = take;
          return out;
        }
        long until = n == 0 ? deadline : Math.min(deadline, firstAt + batchNs);
        if (now >= until) {
          return new ArrayList<E>(0);
        }
        idle = n == 0;
        try {
          ready.awaitNanos(until - now);
        } finally {
          idle = false;
        }
        now = System.nanoTime();
      }
    } finally {
      lock.unlock();
    }
  }
}
