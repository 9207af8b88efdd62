"""The queues family: the record decoders that queue-based pipelines feed (tf.decode_raw, tf.decode_csv), called on
constant records, their values, dtypes, static shapes and names, and their errors, as real TensorFlow gives them.
The queues, runners and readers themselves need threads and files: tests/trainer/train/test_queue_pipelines.py
replays TensorFlow's runs of them."""
from .cases import call

CSV = ["1,2.5,x", "3,,y", '4,0.5,"z, w"']


def cases():
    return {
        "queues/decode_raw/uint8": call("decode_raw", ["abcd", "efgh"], "uint8"),
        "queues/decode_raw/int16": call("decode_raw", ["abcd", "efgh"], "int16"),
        "queues/decode_raw/int32_big_endian": call("decode_raw", [["abcd"], ["efgh"]], "int32", little_endian=False),
        "queues/decode_raw/float64": call("decode_raw", "abcdefgh", "float64"),
        "queues/decode_raw/unequal_lengths": call("decode_raw", ["abcd", "ef"], "uint8"),
        "queues/io.decode_raw/int32": call("io.decode_raw", ["abcdefgh"], "int32"),
        "queues/decode_csv/defaults": call("decode_csv", CSV, [[0], [-1.0], ["?"]]),
        "queues/decode_csv/int64_float64": call("decode_csv", ["7,1e3", "8,-2"], [[0], [0.0]]),
        "queues/decode_csv/delim": call("decode_csv", ["1;2", "3;4"], [[0], [0]], field_delim=";"),
        "queues/decode_csv/select_cols": call("decode_csv", ["1,2,3", "4,5,6"], [[0], [0]], select_cols=[0, 2]),
        "queues/decode_csv/na_value": call("decode_csv", ["1,NA", "NA,2"], [[9], [8]], na_value="NA"),
        "queues/decode_csv/missing_required": call("decode_csv", ["1,", "2,3"], [[0], []]),
        "queues/decode_csv/too_many_fields": call("decode_csv", ["1,2,3"], [[0], [0]]),
        "queues/decode_csv/not_a_number": call("decode_csv", ["1,x"], [[0], [0]]),
        "queues/decode_csv/matrix": call("decode_csv", [["1,2", "3,4"], ["5,6", "7,8"]], [[0.0], [0]]),
        "queues/io.decode_csv/scalar": call("io.decode_csv", "5,6", [[0], [0]]),
    }
