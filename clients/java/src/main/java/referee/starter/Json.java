package referee.starter;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A small JSON reader and writer: objects are Maps, arrays Lists, numbers Num (their text,
 *  so a move goes back exactly as it came), strings, booleans and null. Enough for the bot
 *  protocol, without a library download. */
public final class Json {
    /** A number, kept as written. */
    public record Num(String text) {
        @Override public String toString() { return text; }
    }

    private final String s;
    private int i;

    private Json(String s) { this.s = s; }

    public static Object parse(String text) {
        Json p = new Json(text);
        Object value = p.value(0);
        p.space();
        if (p.i != text.length()) throw p.error("trailing characters");
        return value;
    }

    private IllegalArgumentException error(String what) {
        return new IllegalArgumentException(what + " at " + i);
    }

    private void space() {
        while (i < s.length() && " \t\r\n".indexOf(s.charAt(i)) >= 0) i++;
    }

    private boolean eat(char c) {
        space();
        if (i < s.length() && s.charAt(i) == c) { i++; return true; }
        return false;
    }

    private void expect(char c) { if (!eat(c)) throw error("expected '" + c + "'"); }

    private Object value(int depth) {
        if (depth > 64) throw error("nested too deep");
        space();
        if (i >= s.length()) throw error("unexpected end");
        char c = s.charAt(i);
        if (c == '{') {
            i++;
            Map<String, Object> map = new LinkedHashMap<>();
            if (eat('}')) return map;
            do {
                space();
                String key = string();
                expect(':');
                map.put(key, value(depth + 1));
            } while (eat(','));
            expect('}');
            return map;
        }
        if (c == '[') {
            i++;
            List<Object> list = new ArrayList<>();
            if (eat(']')) return list;
            do list.add(value(depth + 1)); while (eat(','));
            expect(']');
            return list;
        }
        if (c == '"') return string();
        for (String word : new String[] {"true", "false", "null"}) {
            if (s.startsWith(word, i)) {
                i += word.length();
                return word.equals("null") ? null : Boolean.valueOf(word);
            }
        }
        int start = i;
        while (i < s.length() && "+-0123456789.eE".indexOf(s.charAt(i)) >= 0) i++;
        String number = s.substring(start, i);
        if (!number.matches("-?(0|[1-9]\\d*)(\\.\\d+)?([eE][+-]?\\d+)?")) throw error("bad value");
        return new Num(number);
    }

    private String string() {
        if (i >= s.length() || s.charAt(i) != '"') throw error("expected a string");
        i++;
        StringBuilder out = new StringBuilder();
        while (true) {
            if (i >= s.length()) throw error("unterminated string");
            char c = s.charAt(i++);
            if (c == '"') return out.toString();
            if (c < 0x20) throw error("control character in string");
            if (c != '\\') { out.append(c); continue; }
            if (i >= s.length()) throw error("unterminated escape");
            char e = s.charAt(i++);
            switch (e) {
                case 'b' -> out.append('\b');
                case 'f' -> out.append('\f');
                case 'n' -> out.append('\n');
                case 'r' -> out.append('\r');
                case 't' -> out.append('\t');
                case 'u' -> {
                    if (i + 4 > s.length()) throw error("short \\u escape");
                    out.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
                    i += 4;
                }
                case '"', '\\', '/' -> out.append(e);
                default -> throw error("bad escape");
            }
        }
    }

    public static String write(Object value) {
        StringBuilder out = new StringBuilder();
        write(value, out);
        return out.toString();
    }

    private static void write(Object value, StringBuilder out) {
        if (value == null) out.append("null");
        else if (value instanceof String str) quote(str, out);
        else if (value instanceof Num || value instanceof Boolean || value instanceof Integer
                 || value instanceof Long) out.append(value);
        else if (value instanceof Map<?, ?> map) {
            out.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                if (!first) out.append(',');
                first = false;
                quote(String.valueOf(entry.getKey()), out);
                out.append(':');
                write(entry.getValue(), out);
            }
            out.append('}');
        } else if (value instanceof List<?> list) {
            out.append('[');
            for (int k = 0; k < list.size(); k++) {
                if (k > 0) out.append(',');
                write(list.get(k), out);
            }
            out.append(']');
        } else throw new IllegalArgumentException("not JSON: " + value.getClass());
    }

    private static void quote(String str, StringBuilder out) {
        out.append('"');
        for (char c : str.toCharArray()) {
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) out.append(String.format("\\u%04x", (int) c));
                    else out.append(c);
                }
            }
        }
        out.append('"');
    }
}
