package io.tributary.clickhouse;

import io.tributary.schema.ServerColumn;
import io.tributary.schema.Sql;
import io.tributary.schema.TableCatalog;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** The tables' columns as the server has them, from {@code system.columns}. */
public final class ClickHouseCatalog implements TableCatalog {
    private static final long serialVersionUID = 1L;

    private final ClickHouseEndpoint endpoint;
    private final String database;

    public ClickHouseCatalog(ClickHouseEndpoint endpoint, String database) {
        this.endpoint = endpoint;
        this.database = database;
    }

    @Override
    public Map<String, List<ServerColumn>> columns(Collection<String> tables) throws IOException {
        Map<String, List<ServerColumn>> out = new LinkedHashMap<>();
        if (tables.isEmpty()) {
            return out;
        }
        String body;
        try (ClickHouseClient client = new ClickHouseClient(endpoint, Duration.ofSeconds(30))) {
            body = client.query("SELECT table, name, type, default_kind, default_expression FROM system.columns"
                    + " WHERE database = " + Sql.string(database) + " AND table IN ("
                    + tables.stream().map(Sql::string).collect(Collectors.joining(", "))
                    + ") ORDER BY table, position FORMAT TabSeparated");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while reading the columns of " + tables, e);
        }
        for (String line : body.split("\n")) {
            if (line.isEmpty()) {
                continue;
            }
            String[] f = line.split("\t", -1);
            if (f.length != 5) {
                throw new IOException("unexpected line from system.columns: " + line);
            }
            out.computeIfAbsent(unescape(f[0]), t -> new ArrayList<>())
                    .add(new ServerColumn(unescape(f[1]), unescape(f[2]), unescape(f[3]), unescape(f[4])));
        }
        return out;
    }

    @Override
    public String database() {
        return database;
    }

    /** A TabSeparated field: backslash escapes. */
    static String unescape(String s) {
        if (s.indexOf('\\') < 0) {
            return s;
        }
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c != '\\' || i + 1 == s.length()) {
                sb.append(c);
                continue;
            }
            char n = s.charAt(++i);
            switch (n) {
                case 't':
                    sb.append('\t');
                    break;
                case 'n':
                    sb.append('\n');
                    break;
                case 'r':
                    sb.append('\r');
                    break;
                case '0':
                    sb.append('\0');
                    break;
                case 'b':
                    sb.append('\b');
                    break;
                case 'f':
                    sb.append('\f');
                    break;
                default:
                    sb.append(n);
            }
        }
        return sb.toString();
    }
}
