package org.brokerapp.loadtest.cli;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

import org.brokerapp.loadtest.drill.Drill;
import org.brokerapp.loadtest.sla.SlaPlan;
import org.brokerapp.loadtest.workload.Preset;
import org.brokerapp.loadtest.workload.WorkloadSpec;
import org.brokerapp.regions.RegionsModel;

/**
 * Everything a command line asks for.
 *
 * @param resultsDir where summary.md, results.json and report.html go
 * @param check      run the correctness check after the load
 * @param idleBaseline how long to measure the local target at rest before the load, to subtract from CPU and LWT figures (zero: not)
 * @param drill      a failure to inject during the measured window (local target only)
 */
public record RunPlan(Preset preset, RegionsModel regions, WorkloadSpec spec, TargetPlan target, Optional<SlaPlan> sla, Path resultsDir,
                      Duration progressEvery, BigDecimal openingCash, boolean floor, boolean check, Duration idleBaseline,
                      Optional<Drill> drill) {
}
