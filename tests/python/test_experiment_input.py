"""A malformed Experiment(...) is refused when it is made, with a message
naming what is wrong: never a bare AttributeError, KeyError or "string
indices must be integers" from deep inside."""

from __future__ import annotations

import pytest

import schedlab

RUNS = {"runs": [{"policy": "fcfs"}]}


@pytest.mark.parametrize("definition", ["fcfs", ["fcfs"], None, 3])
def test_a_definition_that_is_not_a_mapping_is_a_type_error(definition):
    with pytest.raises(TypeError, match="Experiment\\(\\): definition must be a mapping"):
        schedlab.Experiment(definition)


@pytest.mark.parametrize(
    "definition,error,words",
    [
        ({}, schedlab.OptionError, "runs"),
        ({"runs": "fcfs"}, schedlab.OptionError, "runs"),
        ({"runs": []}, schedlab.ExperimentError, "at least one run"),
        ({"runs": [{"policy": "nope"}]}, schedlab.SchedlabError, "nope"),
        ({"runs": [{"policy": "fcfs"}], "repeat": "3"}, schedlab.OptionError, "repeat"),
        ({"runs": [{"policy": "fcfs"}], "color": "red"}, schedlab.OptionError, "color"),
        ({"runs": [{"policy": "fcfs"}], "workload": {"machine_size": "x"}}, schedlab.OptionError, "machine_size"),
    ],
)
def test_a_definition_the_core_cannot_plan_names_the_field(definition, error, words):
    with pytest.raises(error, match=words):
        schedlab.Experiment(definition)


def test_a_definition_json_cannot_hold_is_a_type_error():
    with pytest.raises(TypeError, match="definition holds what JSON cannot"):
        schedlab.Experiment({"runs": [{"policy": "fcfs"}], "seed": {1, 2}})


@pytest.mark.parametrize(
    "trace",
    [
        {"kind": "sample"},
        {"kind": "sample", "id": 3},
        {"kind": "generated", "procs": "x"},
        {"kind": "file"},
        {"kind": "teapot"},
        {},
    ],
)
def test_a_malformed_trace_reference_is_a_link_error(trace):
    with pytest.raises(schedlab.LinkError):
        schedlab.Experiment(RUNS, trace)


def test_a_trace_reference_that_is_not_a_mapping_is_a_type_error():
    with pytest.raises(TypeError, match="trace must be a mapping"):
        schedlab.Experiment(RUNS, "kth")


def test_a_well_formed_experiment_still_runs(kth):
    result = schedlab.Experiment(RUNS, {"kind": "sample", "id": "kth-sp2-first3000"}).run(progress=False)
    assert result.document["points"][0]["metrics"]["mbs"] > 0
