"""`ringflow train` as a program on the public TF1 API: a MonitoredSession and one hook per duty.

The engine (graph, ops, session, gradients, variables) imports nothing from here.
"""
from .checkpoint_hook import CheckpointHook
from .export_hook import ExportHook
from .metrics_hook import FinalMetricsHook, MetricMeter, MetricsHook
from .progress_hook import ProgressHook
from .restore_hook import RestoreBroadcastHook
from .resume import Checkpoint, find_checkpoint
from .session_creator import RankSessionCreator
from .stop_hook import StopAtStepHook
from .summary_hook import ScalarSummaryHook
from .timeline_hook import TimelineHook
from .timing_hook import TimingHook

__all__ = ["Checkpoint", "CheckpointHook", "ExportHook", "FinalMetricsHook", "MetricMeter", "MetricsHook",
           "ProgressHook", "RankSessionCreator", "RestoreBroadcastHook", "ScalarSummaryHook", "StopAtStepHook",
           "TimelineHook", "TimingHook", "find_checkpoint"]
