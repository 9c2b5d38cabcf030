package io.tributary.encoding;

import com.fasterxml.jackson.core.JsonToken;

/** Words for JSON tokens, in the reasons of refused records. */
final class JsonTokens {

    private JsonTokens() {}

    /** What a document starting with {@code t} is: "an array", "a string", "a boolean", "a number". */
    static String describe(JsonToken t) {
        switch (t) {
            case START_ARRAY:
                return "an array";
            case START_OBJECT:
                return "an object";
            case VALUE_STRING:
                return "a string";
            case VALUE_TRUE:
            case VALUE_FALSE:
                return "a boolean";
            case VALUE_NULL:
                return "null";
            default:
                return "a number";
        }
    }
}
