package org.brokerapp.loadtest.report;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Just enough markdown to HTML for the summary this package writes: headings, tables, lists, bold, code. */
final class MarkdownHtml {

    private static final Pattern BOLD = Pattern.compile("\\*\\*(.+?)\\*\\*");
    private static final Pattern CODE = Pattern.compile("`(.+?)`");

    private MarkdownHtml() {
    }

    static String toHtml(String markdown) {
        StringBuilder html = new StringBuilder();
        boolean inTable = false;
        boolean inList = false;
        boolean header = false;
        for (String line : markdown.split("\n")) {
            if (inTable && !line.startsWith("|")) {
                html.append("</table>\n");
                inTable = false;
            }
            if (inList && !line.startsWith("- ")) {
                html.append("</ul>\n");
                inList = false;
            }
            if (line.startsWith("### ")) {
                html.append("<h3>").append(inline(line.substring(4))).append("</h3>\n");
            } else if (line.startsWith("## ")) {
                html.append("<h2>").append(inline(line.substring(3))).append("</h2>\n");
            } else if (line.startsWith("|---")) {
                header = false;
            } else if (line.startsWith("|")) {
                if (!inTable) {
                    html.append("<table>\n");
                    inTable = true;
                    header = true;
                }
                String[] cells = line.substring(1, line.length() - (line.endsWith("|") ? 1 : 0)).split("\\|", -1);
                html.append("<tr>");
                for (String cell : cells) {
                    String tag = header ? "th" : "td";
                    html.append('<').append(tag).append('>').append(inline(cell.trim())).append("</").append(tag).append('>');
                }
                html.append("</tr>\n");
            } else if (line.startsWith("- ")) {
                if (!inList) {
                    html.append("<ul>\n");
                    inList = true;
                }
                html.append("<li>").append(inline(line.substring(2))).append("</li>\n");
            } else if (!line.isBlank()) {
                html.append("<p>").append(inline(line)).append("</p>\n");
            }
        }
        if (inTable) {
            html.append("</table>\n");
        }
        if (inList) {
            html.append("</ul>\n");
        }
        return html.toString();
    }

    private static String inline(String text) {
        String s = HtmlReport.escape(text);
        s = s.replace("PASSED", "<span class=\"pass\">PASSED</span>").replace("FAILED", "<span class=\"fail\">FAILED</span>");
        Matcher bold = BOLD.matcher(s);
        s = bold.replaceAll("<b>$1</b>");
        return CODE.matcher(s).replaceAll("<code>$1</code>");
    }
}
