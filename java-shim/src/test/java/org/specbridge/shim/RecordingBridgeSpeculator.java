package org.specbridge.shim;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.v2.app.AppContext;

/** A BridgeSpeculator that lets the test reach the instance MRAppMaster created by reflection. */
public class RecordingBridgeSpeculator extends BridgeSpeculator {
  static volatile RecordingBridgeSpeculator last;

  public RecordingBridgeSpeculator(Configuration conf, AppContext context) {
    super(conf, context);
    last = this;
  }
}
