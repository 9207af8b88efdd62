"""`ringflow train` as a program on the public TF1 API: a MonitoredSession and one hook per duty.

The engine (graph, ops, session, gradients, variables) imports nothing from here.
"""
from .outputs import dir_lock, output_paths
from .agreement import JobError, agree
from .hooks.accumulation_hook import MicroBatches, pass_sizes
from .hooks.checkpoint_hook import CheckpointHook
from .outputs.dir_lock import DirectoryLock
from .hooks.export_hook import ExportHook
from .hooks.metrics_hook import FinalMetricsHook, MetricMeter, MetricsHook, strict_json
from .outputs.output_paths import check_outputs, name_the_flag, naming_the_flag, remove_stale_temps
from .hooks.progress_hook import ProgressHook
from .hooks.restore_hook import RestoreBroadcastHook
from .outputs.resume import Checkpoint, check_record, find_checkpoint
from .session_creator import RankSessionCreator
from .signals import StopOnSignalHook, StoppedBySignal, UnlessStopped
from .hooks.stop_hook import StopAtStepHook
from .hooks.summary_hook import ScalarSummaryHook
from .hooks.timeline_hook import TimelineHook
from .hooks.timing_hook import TimingHook

__all__ = ["Checkpoint", "CheckpointHook", "ExportHook", "FinalMetricsHook", "MetricMeter", "MetricsHook",
           "ProgressHook", "RankSessionCreator", "RestoreBroadcastHook", "ScalarSummaryHook", "StopAtStepHook",
           "TimelineHook", "TimingHook", "check_record", "find_checkpoint", "strict_json",
           # before step 1 and at its end (issue 9)
           "DirectoryLock", "JobError", "StopOnSignalHook", "StoppedBySignal", "UnlessStopped", "agree",
           "check_outputs", "name_the_flag", "naming_the_flag", "remove_stale_temps",
           "MicroBatches", "pass_sizes"]
