package io.tributary.otlp.json;

import com.fasterxml.jackson.core.JsonToken;

/** Words for JSON tokens, in the reasons of refused records (OTLP/JSON and the JSON encodings alike). */
public final class JsonTokens {

    private JsonTokens() {}

    /** What a value starting with {@code t} is: "an object", "an array", "a string", "a number", ... */
    public static String describe(JsonToken t) {
        if (t == null) {
            return "the end of the input";
        }
        switch (t) {
            case START_OBJECT:
                return "an object";
            case START_ARRAY:
                return "an array";
            case VALUE_STRING:
                return "a string";
            case VALUE_NUMBER_INT:
            case VALUE_NUMBER_FLOAT:
                return "a number";
            case VALUE_TRUE:
            case VALUE_FALSE:
                return "a boolean";
            case VALUE_NULL:
                return "null";
            default:
                return t.toString();
        }
    }
}
