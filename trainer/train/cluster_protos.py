"""TF's cluster messages (cluster.proto, tensorflow_server.proto): a ClusterSpec as a ClusterDef, a Server's
ServerDef, with TF's field numbers on the one Message base."""
from ..client.config import ConfigProto
from ..platform.protobuf import Field as F, Message


class JobDef(Message):
    """One job: its name and the address of each task by index."""
    FIELDS = {"name": F(1, "string"), "tasks": F(2, "map", "string", key="int32")}


class ClusterDef(Message):
    """Every job of a cluster."""
    FIELDS = {"job": F(1, "message", JobDef, repeated=True)}


class ServerDef(Message):
    """One task of a cluster: the cluster, the task's job and index, its session defaults and protocol."""
    FIELDS = {"cluster": F(1, "message", ClusterDef), "job_name": F(2, "string"), "task_index": F(3, "int32"),
              "default_session_config": F(4, "message", ConfigProto), "protocol": F(5, "string"),
              "port": F(6, "int32")}
