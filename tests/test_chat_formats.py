"""Chat formats: ids equal to openai-harmony's rendering, to Meta's Llama 3 template and to OpenAI's ChatML notes."""

import os

import pytest
import tiktoken
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bpelab.chat_formats import FORMATS, ROLES, Turn, as_turns, render_chat, special_ids
from bpelab.paths import tokenizer_store_dir
from bpelab.production import load_encoding, mergeable_ranks

TRICKY = [
    "<|end|>",
    "<|start|>",
    "<|im_end|>",
    "<|eot_id|>",
    "<|return|>",
    "<|endoftext|>",
    "<|message|>",
    "12345",
    "2024-06-01",
    "👍🏽",
    "👨\u200d👩\u200d👧",
    "e\u0301",
    "東京",
    "Ελληνικά",
    "मराठी",
    "\n\n",
    "  ",
    "\t",
    "\u3000",
    "\x1c",
    "\x85",
    "\ufeff",
]
texts = st.lists(
    st.one_of(st.sampled_from(TRICKY), st.text(st.characters(exclude_categories=("Cs",)), max_size=12)), max_size=5
).map("".join)
conversations = st.lists(st.tuples(st.sampled_from(ROLES), texts), min_size=1, max_size=5)


@pytest.fixture(scope="module")
def harmony():
    """openai-harmony's gpt-oss encoding, offline: its vocabulary comes from the course's o200k_base file."""
    oh = pytest.importorskip("openai_harmony", reason="openai-harmony is a test requirement (requirements-test.txt)")
    os.environ["TIKTOKEN_ENCODINGS_BASE"] = str(tokenizer_store_dir())
    return oh, oh.load_harmony_encoding(oh.HarmonyEncodingName.HARMONY_GPT_OSS)


def harmony_messages(oh, turns):
    """The conversation as openai-harmony's messages: its system message with the course's fixed date,
    a system turn as developer instructions, assistant turns on the final channel."""
    system = oh.SystemContent.new().with_conversation_start_date("2025-08-05")
    messages = [oh.Message.from_role_and_content(oh.Role.SYSTEM, system)]
    for turn in turns:
        if turn.role == "system":
            developer = oh.DeveloperContent.new().with_instructions(turn.text)
            messages.append(oh.Message.from_role_and_content(oh.Role.DEVELOPER, developer))
        elif turn.role == "user":
            messages.append(oh.Message.from_role_and_content(oh.Role.USER, turn.text))
        else:
            messages.append(oh.Message.from_role_and_content(oh.Role.ASSISTANT, turn.text).with_channel("final"))
    return messages


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(conversations)
def test_harmony_ids_equal_openai_harmony_and_trained_tokens_are_what_the_model_writes(harmony, conversation):
    oh, encoding = harmony
    turns = as_turns(conversation)
    messages = harmony_messages(oh, turns)
    rendered = render_chat(turns, "harmony")
    assert rendered.ids == list(encoding.render_conversation_for_training(oh.Conversation.from_messages(messages)))
    # trained on: what follows the prompt openai-harmony primes an answer with, up to the next message
    expected = []
    for k, turn in enumerate(turns):
        if turn.role != "assistant":
            continue
        primed = encoding.render_conversation_for_completion(
            oh.Conversation.from_messages(messages[: k + 1]), oh.Role.ASSISTANT
        )
        upto = encoding.render_conversation_for_training(oh.Conversation.from_messages(messages[: k + 2]))
        written = list(upto[len(primed) :])
        if k < len(turns) - 1:  # openai-harmony ends only the conversation's last message with <|return|>
            written[-1] = special_ids("harmony")["<|end|>"]
        expected += written
    assert rendered.trained_ids == expected


class Special(str):
    """A template's special token, apart from text that merely spells one."""

    @property
    def name(self) -> str:
        return str(self)


def segments_ids(encoding, segments, specials):
    """Encode a template written as [special, text, special, ...] the way Meta's and OpenAI's code do:
    special tokens by their ids, the text between them as ordinary text."""
    ids = []
    for part in segments:
        ids += [specials[part.name]] if isinstance(part, Special) else encoding.encode_ordinary(part)
    return ids


def llama3_template(turns):
    """Meta's Llama 3 prompt format (model card, "Prompt format"; reference ChatFormat in llama/tokenizer.py:
    header, "\\n\\n", content.strip(), <|eot_id|>), as segments."""
    parts = [Special("<|begin_of_text|>")]
    for turn in turns:
        parts += [
            Special("<|start_header_id|>"),
            turn.role,
            Special("<|end_header_id|>"),
            "\n\n",
            turn.text.strip(),
            Special("<|eot_id|>"),
        ]
    return parts


def chatml_template(turns):
    """OpenAI's ChatML notes (openai-python chatml.md, release v0.28.0): {"token": "<|im_start|>"},
    "role\\ntext", {"token": "<|im_end|>"}, "\\n" per message."""
    parts = []
    for turn in turns:
        parts += [Special("<|im_start|>"), f"{turn.role}\n{turn.text}", Special("<|im_end|>"), "\n"]
    return parts


def test_llama3_known_conversation_is_metas_documented_string():
    turns = [Turn("system", "You are a helpful assistant."), Turn("user", "What is 2+2?"), Turn("assistant", " 4. ")]
    documented = (
        "<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\nYou are a helpful assistant.<|eot_id|>"
        "<|start_header_id|>user<|end_header_id|>\n\nWhat is 2+2?<|eot_id|>"
        "<|start_header_id|>assistant<|end_header_id|>\n\n4.<|eot_id|>"
    )
    llama3 = load_encoding("llama3")
    rendered = render_chat(turns, "llama3")
    assert rendered.ids == llama3.encode(documented, allowed_special="all")
    assert llama3.decode(rendered.trained_ids) == "4.<|eot_id|>"
    assert special_ids("llama3")["<|eot_id|>"] == 128009 and special_ids("llama3")["<|begin_of_text|>"] == 128000


def test_chatml_known_conversation_is_openais_documented_string():
    turns = [Turn("system", "You are ChatGPT."), Turn("user", "How are you"), Turn("assistant", "I am doing well!")]
    documented = (
        "<|im_start|>system\nYou are ChatGPT.<|im_end|>\n<|im_start|>user\nHow are you<|im_end|>\n"
        "<|im_start|>assistant\nI am doing well!<|im_end|>\n"
    )
    cl100k = tiktoken.get_encoding("cl100k_base")
    # tiktoken's README, "Extending tiktoken": cl100k_base plus ChatML's two tokens
    cl100k_im = tiktoken.Encoding(
        name="cl100k_im",
        pat_str=cl100k._pat_str,
        mergeable_ranks=mergeable_ranks(cl100k),  # a dict: the course may have released tiktoken's own copy
        special_tokens={**cl100k._special_tokens, "<|im_start|>": 100264, "<|im_end|>": 100265},
    )
    rendered = render_chat(turns, "chatml")
    assert rendered.ids == cl100k_im.encode(documented, allowed_special="all")
    assert cl100k_im.decode(rendered.trained_ids) == "I am doing well!<|im_end|>"


@settings(max_examples=50, deadline=None)
@given(conversations)
def test_llama3_and_chatml_equal_their_templates_and_train_only_on_assistant_turns(conversation):
    turns = as_turns(conversation)
    for format, template, encoding in [
        ("llama3", llama3_template, load_encoding("llama3")),
        ("chatml", chatml_template, tiktoken.get_encoding("cl100k_base")),
    ]:
        rendered = render_chat(turns, format)
        assert rendered.ids == segments_ids(encoding, template(turns), special_ids(format))
        answers = [t for t in turns if t.role == "assistant"]
        end = "<|eot_id|>" if format == "llama3" else "<|im_end|>"
        expected = []
        for turn in answers:  # the answer's text (stripped for Llama 3), as the model writes it, then its end token
            body = turn.text.strip() if format == "llama3" else turn.text
            own = [t.id for t in rendered.tokens if t.turn == turns.index(turn) and t.own]
            if format == "llama3":
                assert own == encoding.encode_ordinary(body)
            expected += own + [special_ids(format)[end]]
        # every trained token belongs to an assistant turn, and every assistant turn's own text is trained
        assert rendered.trained_ids == expected
        assert all(turns[t.turn].role == "assistant" for t in rendered.tokens if t.trained)


@settings(max_examples=30, deadline=None)
@given(conversations, st.sampled_from(FORMATS))
def test_own_text_and_overhead_add_up(conversation, format):
    rendered = render_chat(conversation, format)
    rows = rendered.tokens_per_turn()
    assert sum(r["text tokens"] for r in rows) + rendered.overhead == len(rendered.ids)
    assert sum(r["tokens"] for r in rows) + sum(1 for t in rendered.tokens if t.turn is None) == len(rendered.ids)
    assert all(not t.own for t in rendered.tokens if t.special)


@pytest.mark.skipif(
    "o200k_harmony" not in tiktoken.list_encoding_names(),
    reason=f"tiktoken {tiktoken.__version__} predates o200k_harmony (the pinned one, make test, has it)",
)
def test_harmonys_table_for_an_older_tiktoken_is_tiktokens_own():
    from bpelab.chat_formats import HARMONY_SPECIAL

    harmony = tiktoken.get_encoding("o200k_harmony")  # the pinned tiktoken has it
    assert {name: harmony._special_tokens[name] for name in HARMONY_SPECIAL} == HARMONY_SPECIAL
    assert special_ids("harmony") == HARMONY_SPECIAL
    assert harmony._pat_str == tiktoken.get_encoding("o200k_base")._pat_str  # its text is o200k_base's


def test_bad_conversations_say_what_is_wrong():
    with pytest.raises(ValueError, match="role must be one of system, user, assistant"):
        render_chat([("tool", "x")])
    with pytest.raises(TypeError, match="text must be a str"):
        render_chat([("user", 3)])
    with pytest.raises(ValueError, match="unknown chat format"):
        render_chat([("user", "x")], "alpaca")
