package org.specbridge.shim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Batching by batch.ms and batch.max. The timing assertions are lower bounds (a batch never leaves before its
 * batch.ms) or use a batch.ms far beyond the test's timeout, so a loaded machine cannot make them fail.
 */
class EventBatcherTest {
  private static long msSince(long t0) {
    return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
  }

  /** A batch.ms no test waits out. */
  private static final long HOUR_MS = 3600000;

  /** A batcher of batch.max 3 and batch.ms HOUR_MS, offered 0..n-1: only full batches leave. */
  private static EventBatcher<Integer> fullBatchesOf(int n) {
    EventBatcher<Integer> b = new EventBatcher<Integer>(100, HOUR_MS, 3);
    for (int i = 0; i < n; i++) {
      b.offer(i);
    }
    return b;
  }

  @Test
  @Timeout(30)
  void eventsWaitForBatchMsAndLeaveTogether() throws Exception {
    EventBatcher<Integer> b = new EventBatcher<Integer>(100, 300, 500);
    long t0 = System.nanoTime();
    b.offer(1);
    b.offer(2);
    List<Integer> got = new ArrayList<Integer>();
    while (got.isEmpty()) {
      got = b.next(10000);
    }
    assertTrue(msSince(t0) >= 300, "a batch left after " + msSince(t0) + " ms, before batch.ms = 300");
    assertEquals(Arrays.asList(1, 2), got);
    assertEquals(0, b.backlog());
  }

  @Test
  @Timeout(30)
  void eventsArrivingWhileABatchFillsJoinIt() throws Exception {
    final EventBatcher<Integer> b = new EventBatcher<Integer>(100, 400, 500);
    b.offer(1);
    Thread late = new Thread(() -> b.offer(2));
    List<Integer> got = b.next(50); // the batch is not due yet
    assertTrue(got.isEmpty());
    late.start();
    late.join();
    while (got.isEmpty()) {
      got = b.next(10000);
    }
    assertEquals(Arrays.asList(1, 2), got);
  }

  @Test
  @Timeout(30)
  void aFullBatchLeavesAtOnce() throws Exception {
    EventBatcher<Integer> b = fullBatchesOf(7);
    assertEquals(Arrays.asList(0, 1, 2), b.next(HOUR_MS));
    assertEquals(Arrays.asList(3, 4, 5), b.next(HOUR_MS));
    assertEquals(1, b.backlog());
  }

  @Test
  @Timeout(30)
  void withNothingQueuedNextReturnsEmptyAfterMaxWait() throws Exception {
    EventBatcher<Integer> b = new EventBatcher<Integer>(100, 50, 10);
    long t0 = System.nanoTime();
    assertTrue(b.next(120).isEmpty());
    assertTrue(msSince(t0) >= 120, "returned after " + msSince(t0) + " ms");
  }

  @Test
  void aFullQueueDropsCountsAndAsksForOneResync() {
    EventBatcher<Integer> b = new EventBatcher<Integer>(2, 100, 10);
    assertTrue(b.offer(1));
    assertTrue(b.offer(2));
    assertFalse(b.offer(3));
    assertFalse(b.offer(4));
    assertEquals(2, b.dropped.get());
    assertTrue(b.takeOverflow());
    assertFalse(b.takeOverflow(), "one resync per overflow");
  }

  @Test
  void badSizesAreRefused() {
    assertThrows(IllegalArgumentException.class, () -> new EventBatcher<Integer>(10, 0, 10));
    assertThrows(IllegalArgumentException.class, () -> new EventBatcher<Integer>(10, 10, 0));
  }

  @Test
  @Timeout(30)
  void aTakenBatchIsUnfinishedUntilTheWorkerAsksForTheNext() throws Exception {
    EventBatcher<Integer> b = fullBatchesOf(4);
    assertEquals(Arrays.asList(0, 1, 2), b.next(HOUR_MS));
    // The worker is sending 0..2: not done with, though no longer queued.
    assertEquals(1, b.backlog());
    assertEquals(4, b.unfinished());
    assertTrue(b.next(0).isEmpty()); // 3 is not due for an hour; asking says 0..2 are done with
    assertEquals(1, b.unfinished());
  }
}
